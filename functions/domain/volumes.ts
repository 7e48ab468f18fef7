/** Storage objects that constrain where a pod can run (volume topology). */
import type { NodeSelectorTerm } from './pod.ts';

export interface PersistentVolumeClaim {
  readonly namespace: string;
  readonly name: string;
  readonly storageClassName?: string;
  readonly volumeName?: string;
}

export interface PersistentVolume {
  readonly name: string;
  readonly storageClassName?: string;
  readonly nodeAffinity?: {
    readonly required?: { readonly nodeSelectorTerms: readonly NodeSelectorTerm[] };
  };
}

export interface TopologySelectorTerm {
  readonly matchLabelExpressions?: readonly {
    readonly key: string;
    readonly values: readonly string[];
  }[];
}

export interface StorageClass {
  readonly name: string;
  readonly provisioner: string;
  readonly volumeBindingMode?: 'Immediate' | 'WaitForFirstConsumer';
  readonly allowedTopologies?: readonly TopologySelectorTerm[];
  /** Annotated `storageclass.kubernetes.io/is-default-class: "true"`: claims without a class get it. */
  readonly isDefault?: boolean;
}

export interface RuntimeClass {
  readonly name: string;
  readonly overhead?: { readonly podFixed?: Readonly<Record<string, string | number>> };
  readonly scheduling?: {
    readonly nodeSelector?: Readonly<Record<string, string>>;
    readonly tolerations?: readonly import('./taints.ts').Toleration[];
  };
}
