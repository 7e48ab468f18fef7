/**
 * What a kubelet booted from a launch template registers with, read from the template's user
 * data as the node's own bootstrap reads it: nodeadm's NodeConfig parts on AL2023 (merged in
 * order, `registerWithTaints` and the `--node-labels` flag), the `--kubelet-extra-args` of the
 * MIME part that runs AL2's `/etc/eks/bootstrap.sh`, Bottlerocket's `settings.kubernetes` TOML
 * (`node-labels`, `node-taints`, `max-pods`), or the kubelet flags of any other bootstrap script
 * (`--node-labels=…`, `--register-with-taints=…`, `--max-pods=…`), as Windows'
 * Start-EKSBootstrap passes them.
 */
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import {
  isMime,
  type MimePart,
  parseMime,
} from '../../../functions/adapters/ec2/user-data/mime.ts';
import type { AmiFamily } from '../../../functions/domain/node-class.ts';
import type { Taint } from '../../../functions/domain/taints.ts';

export interface KubeletRegistration {
  /** The family whose bootstrap reads this user data, when its form tells. */
  readonly amiFamily?: AmiFamily;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
  readonly maxPods?: number;
}

const NOTHING: KubeletRegistration = { labels: {}, taints: [] };

type Effect = Taint['effect'];

function taint(key: string, value: string, effect: string): Taint {
  return value === ''
    ? { key, effect: effect as Effect }
    : { key, value, effect: effect as Effect };
}

/** `a=1,b=2`, as `--node-labels` takes them. */
function labelList(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    if (at > 0) labels[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return labels;
}

/** `key=value:Effect,key:Effect`, as `--register-with-taints` takes them. */
function taintList(text: string): Taint[] {
  return text.split(',').flatMap((entry) => {
    const colon = entry.lastIndexOf(':');
    if (colon < 0) return [];
    const [key = '', value = ''] = entry.slice(0, colon).split('=');
    return [taint(key.trim(), value.trim(), entry.slice(colon + 1).trim())];
  });
}

function flag(text: string, name: string): string | undefined {
  const match = new RegExp(`--${name}=("([^"]*)"|'([^']*)'|([^\\s'"]*))`).exec(text);
  return match === null ? undefined : (match[2] ?? match[3] ?? match[4]);
}

function fromFlags(text: string): KubeletRegistration {
  const labels = flag(text, 'node-labels');
  const taints = flag(text, 'register-with-taints');
  const maxPods = flag(text, 'max-pods');
  return {
    labels: labels === undefined ? {} : labelList(labels),
    taints: taints === undefined ? [] : taintList(taints),
    ...(maxPods === undefined ? {} : { maxPods: Number(maxPods) }),
  };
}

interface NodeConfigKubelet {
  readonly config?: { registerWithTaints?: Taint[]; maxPods?: number };
  readonly flags?: string[];
}

/** nodeadm merges NodeConfig parts in order: a later part's settings win. */
function fromNodeConfigs(documents: readonly NodeConfigKubelet[]): KubeletRegistration {
  let registration = NOTHING;
  for (const kubelet of documents) {
    const flags = fromFlags((kubelet.flags ?? []).join(' '));
    const config = kubelet.config ?? {};
    registration = {
      labels: { ...registration.labels, ...flags.labels },
      taints:
        config.registerWithTaints?.map((t) => taint(t.key, t.value ?? '', t.effect)) ??
        registration.taints,
      ...(config.maxPods === undefined
        ? registration.maxPods === undefined
          ? {}
          : { maxPods: registration.maxPods }
        : { maxPods: config.maxPods }),
    };
  }
  return registration;
}

function contentType(part: MimePart): string {
  return part.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
}

function nodeadm(parts: readonly MimePart[]): KubeletRegistration {
  const documents = parts.flatMap((part) => {
    if (!contentType(part).startsWith('application/node.eks.aws')) return [];
    const document = parseYaml(part.content) as { spec?: { kubelet?: NodeConfigKubelet } };
    return [document?.spec?.kubelet ?? {}];
  });
  return fromNodeConfigs(documents);
}

/** bootstrap.sh hands its `--kubelet-extra-args '…'` to the kubelet as they are. */
function eksBootstrap(script: string): KubeletRegistration {
  const extraArgs = /--kubelet-extra-args '([^']*)'/.exec(script)?.[1] ?? '';
  return { ...fromFlags(extraArgs), amiFamily: 'AL2' };
}

/** AL2's script part runs bootstrap.sh; AL2023's document holds NodeConfig parts instead. */
function fromMime(text: string): KubeletRegistration {
  const parts = parseMime(text);
  const script = parts.findLast(
    (part) =>
      contentType(part).startsWith('text/x-shellscript') &&
      part.content.includes('/etc/eks/bootstrap.sh'),
  );
  const nodeConfig = parts.some((part) => contentType(part).startsWith('application/node.eks.aws'));
  if (script !== undefined && !nodeConfig) return eksBootstrap(script.content);
  return { ...nodeadm(parts), amiFamily: 'AL2023' };
}

function bottlerocket(kubernetes: Record<string, unknown>): KubeletRegistration {
  const labels = (kubernetes['node-labels'] ?? {}) as Record<string, string>;
  const taints = (kubernetes['node-taints'] ?? {}) as Record<string, string[]>;
  const maxPods = kubernetes['max-pods'];
  return {
    labels: { ...labels },
    taints: Object.entries(taints).flatMap(([key, values]) =>
      values.map((entry) => {
        const [value = '', effect = ''] = entry.split(':');
        return taint(key, value, effect);
      }),
    ),
    ...(typeof maxPods === 'number' ? { maxPods } : {}),
  };
}

function bottlerocketSettings(text: string): Record<string, unknown> | undefined {
  try {
    const settings = parseToml(text).settings as Record<string, unknown> | undefined;
    return settings?.kubernetes as Record<string, unknown> | undefined;
  } catch {
    return undefined;
  }
}

/** What the kubelet registers with, from the template's base64 user data. */
export function kubeletRegistration(userDataBase64: string | undefined): KubeletRegistration {
  if (userDataBase64 === undefined) return NOTHING;
  const text = Buffer.from(userDataBase64, 'base64').toString('utf8');
  if (isMime(text)) return fromMime(text);
  const kubernetes = bottlerocketSettings(text);
  return kubernetes === undefined
    ? fromFlags(text)
    : { ...bottlerocket(kubernetes), amiFamily: 'Bottlerocket' };
}
