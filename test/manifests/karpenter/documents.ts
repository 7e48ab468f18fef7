/**
 * Documents for the Karpenter manifest tests: the design's §8 fixtures, examples following the
 * Karpenter documentation (concepts/nodepools, concepts/nodeclasses, examples/v1) with their
 * placeholders filled in, and full documents as `kubectl get -o yaml` prints them, status included.
 */
import { parse, parseAllDocuments } from 'yaml';

/** The two documents of reference §8. */
export const REFERENCE_MANIFESTS = `
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: { name: default }
spec:
  weight: 10
  limits: { cpu: "1000", memory: 1000Gi }
  disruption:
    consolidationPolicy: WhenEmptyOrUnderutilized
    consolidateAfter: 1m
    budgets:
      - nodes: "10%"
      - nodes: "0"
        reasons: [Underutilized]
        schedule: "0 9 * * mon-fri"
        duration: 8h
  template:
    metadata: { labels: { team: platform } }
    spec:
      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: default }
      expireAfter: 720h
      terminationGracePeriod: 48h
      startupTaints: [{ key: node.cilium.io/agent-not-ready, value: "true", effect: NoExecute }]
      requirements:
        - { key: karpenter.sh/capacity-type, operator: In, values: [spot, on-demand] }
        - { key: karpenter.k8s.aws/instance-category, operator: In, values: [c, m, r] }
        - { key: karpenter.k8s.aws/instance-generation, operator: Gt, values: ["2"] }
        - { key: karpenter.k8s.aws/instance-family, operator: Exists, minValues: 5 }
        - { key: kubernetes.io/arch, operator: In, values: [amd64, arm64] }
---
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: { name: default }
spec:
  role: KarpenterNodeRole-mycluster
  amiSelectorTerms: [{ alias: al2023@latest }]
  subnetSelectorTerms: [{ tags: { karpenter.sh/discovery: mycluster } }]
  securityGroupSelectorTerms: [{ tags: { karpenter.sh/discovery: mycluster } }]
  blockDeviceMappings:
    - { deviceName: /dev/xvda, ebs: { volumeSize: 50Gi, volumeType: gp3, encrypted: true } }
  kubelet: { maxPods: 110, kubeReserved: { cpu: 200m }, evictionHard: { memory.available: 5% } }
`;

/**
 * The NodePool reference of the docs (concepts/nodepools) with one choice made where the page
 * lists alternatives (`720h | Never`), and without `replicas`, which the page sets next to
 * `weight` and cpu limits although a static pool allows neither.
 */
export const DOCS_NODE_POOL = `
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: default
spec:
  template:
    metadata:
      labels:
        billing-team: my-team
      annotations:
        example.com/owner: "my-team"
    spec:
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: default
      taints:
        - key: example.com/special-taint
          effect: NoSchedule
      startupTaints:
        - key: example.com/another-taint
          effect: NoSchedule
      expireAfter: Never
      terminationGracePeriod: 48h
      requirements:
        - key: "karpenter.k8s.aws/instance-category"
          operator: In
          values: ["c", "m", "r"]
          minValues: 2
        - key: "karpenter.k8s.aws/instance-family"
          operator: In
          values: ["m5", "m5d", "c5", "c5d", "c4", "r4"]
          minValues: 5
        - key: "karpenter.k8s.aws/instance-cpu"
          operator: In
          values: ["4", "8", "16", "32"]
        - key: "karpenter.k8s.aws/instance-hypervisor"
          operator: In
          values: ["nitro"]
        - key: "karpenter.k8s.aws/instance-generation"
          operator: Gte
          values: ["3"]
        - key: "topology.kubernetes.io/zone"
          operator: In
          values: ["us-west-2a", "us-west-2b"]
        - key: "kubernetes.io/arch"
          operator: In
          values: ["arm64", "amd64"]
        - key: "karpenter.sh/capacity-type"
          operator: In
          values: ["spot", "on-demand", "reserved"]
  disruption:
    consolidationPolicy: WhenEmptyOrUnderutilized
    consolidateAfter: 1m
    budgets:
      - nodes: 10%
      - schedule: "0 9 * * mon-fri"
        duration: 8h
        nodes: "0"
  limits:
    cpu: "1000"
    memory: 1000Gi
    nodes: 10
  weight: 10
status:
  conditions:
    - type: Initialized
      status: "False"
      observedGeneration: 1
      lastTransitionTime: "2024-02-02T19:54:34Z"
      reason: NodeClaimNotLaunched
      message: "NodeClaim hasn't succeeded launch"
  nodes: 5
  resources:
    cpu: "20"
    memory: "8192Mi"
    ephemeral-storage: "100Gi"
`;

/** The static NodePool of the docs, with the nodeClassRef the page leaves out. */
export const DOCS_STATIC_NODE_POOL = `
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: static-capacity
spec:
  replicas: 10
  template:
    spec:
      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: default }
      requirements:
        - key: node.kubernetes.io/instance-type
          operator: In
          values: ["m5.large", "m5.xlarge"]
        - key: topology.kubernetes.io/zone
          operator: In
          values: ["us-west-2a"]
  limits:
    nodes: 15
  disruption:
    consolidateAfter: 0s
    budgets:
      - nodes: 20%
`;

/** examples/v1/node-ttls.yaml: a weekly expiry and a one-minute empty-node delay. */
export const EXAMPLE_NODE_TTLS = `
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: default
  annotations:
    kubernetes.io/description: "General purpose NodePool for generic workloads"
spec:
  template:
    spec:
      requirements:
        - { key: kubernetes.io/arch, operator: In, values: ["amd64"] }
        - { key: kubernetes.io/os, operator: In, values: ["linux"] }
        - { key: karpenter.sh/capacity-type, operator: In, values: ["on-demand"] }
        - { key: karpenter.k8s.aws/instance-category, operator: In, values: ["c", "m", "r"] }
        - { key: karpenter.k8s.aws/instance-generation, operator: Gt, values: ["2"] }
      nodeClassRef: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: default }
      expireAfter: 168h
  disruption:
    consolidationPolicy: WhenEmpty
    consolidateAfter: 60s
`;

/**
 * The EC2NodeClass reference of the docs (concepts/nodeclasses), placeholders filled in. The page
 * shows every field at once, so two of its lines contradict the rules it states: `role` and
 * `instanceProfile` are exclusive (the role is kept) and a placement group is chosen by name or
 * id (the name is kept).
 */
export const DOCS_NODE_CLASS = `
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: default
spec:
  kubelet:
    podsPerCore: 2
    maxPods: 20
    systemReserved: { cpu: 100m, memory: 100Mi, ephemeral-storage: 1Gi }
    kubeReserved: { cpu: 200m, memory: 100Mi, ephemeral-storage: 3Gi }
    evictionHard: { memory.available: 5%, nodefs.available: 10%, nodefs.inodesFree: 10% }
    evictionSoft: { memory.available: 500Mi, nodefs.available: 15%, nodefs.inodesFree: 15% }
    evictionSoftGracePeriod: { memory.available: 1m, nodefs.available: 1m30s, nodefs.inodesFree: 2m }
    evictionMaxPodGracePeriod: 60
    imageGCHighThresholdPercent: 85
    imageGCLowThresholdPercent: 80
    cpuCFSQuota: true
    clusterDNS: ["10.0.1.100"]
  amiFamily: AL2023
  subnetSelectorTerms:
    - tags: { karpenter.sh/discovery: "my-cluster", environment: test }
    - id: subnet-09fa4a0a8f233a921
  securityGroupSelectorTerms:
    - tags: { karpenter.sh/discovery: "my-cluster", environment: test }
    - name: my-security-group
    - id: sg-063d7acfb4b06c82c
  role: "KarpenterNodeRole-my-cluster"
  amiSelectorTerms:
    - tags: { karpenter.sh/discovery: "my-cluster", environment: test }
    - name: my-ami
    - id: ami-123
    - ssmParameter: my-custom-parameter
  capacityReservationSelectorTerms:
    - tags: { karpenter.sh/discovery: my-cluster }
    - id: cr-123
    - instanceMatchCriteria: open
  enclaveOptions: { enabled: true }
  placementGroupSelector: { name: my-pg }
  tags: { team: team-a, app: team-a-app }
  metadataOptions:
    httpEndpoint: enabled
    httpProtocolIPv6: disabled
    httpPutResponseHopLimit: 1
    httpTokens: required
  connectionTracking: { tcpEstablishedTimeout: 300, udpStreamTimeout: 120, udpTimeout: 45 }
  blockDeviceMappings:
    - deviceName: /dev/xvda
      ebs:
        volumeSize: 100Gi
        volumeType: gp3
        iops: 10000
        encrypted: true
        kmsKeyID: "1234abcd-12ab-34cd-56ef-1234567890ab"
        deleteOnTermination: true
        throughput: 125
        snapshotID: snap-0123456789
        volumeInitializationRate: 100
  networkInterfaces:
    - { networkCardIndex: 0, deviceIndex: 0, interfaceType: "interface" }
    - { networkCardIndex: 0, deviceIndex: 1, interfaceType: "interface" }
  instanceStorePolicy: RAID0
  userData: |
    echo "Hello world"
  detailedMonitoring: true
  associatePublicIPAddress: true
status:
  subnets:
    - { id: subnet-0a462d98193ff9fac, zone: us-east-2b }
    - { id: subnet-0322dfafd76a609b6, zone: us-east-2c }
    - { id: subnet-00c99aeafe2a70304, zone: us-east-2a }
  securityGroups:
    - { id: sg-041513b454818610b, name: ClusterSharedNodeSecurityGroup }
    - { id: sg-0286715698b894bca, name: ControlPlaneSecurityGroup-1AQ073TSAAPW }
  amis:
    - id: ami-01234567890123456
      name: custom-ami-amd64
      requirements: [{ key: kubernetes.io/arch, operator: In, values: [amd64] }]
    - id: ami-01234567890123456
      name: custom-ami-arm64
      deprecated: true
      requirements: [{ key: kubernetes.io/arch, operator: In, values: [arm64] }]
  capacityReservations:
    - availabilityZone: us-west-2a
      id: cr-01234567890123456
      instanceMatchCriteria: targeted
      instanceType: g6.48xlarge
      interruptible: false
      ownerID: "012345678901"
      reservationType: capacity-block
      state: expiring
    - availabilityZone: us-west-2c
      id: cr-12345678901234567
      instanceMatchCriteria: open
      instanceType: g6.48xlarge
      ownerID: "98765432109"
  instanceProfile: "my-cluster-0123456778901234567789"
  conditions:
    - { lastTransitionTime: "2024-02-02T19:54:34Z", status: "True", type: InstanceProfileReady }
    - { lastTransitionTime: "2024-02-02T19:54:34Z", status: "True", type: SubnetsReady }
    - { lastTransitionTime: "2024-02-02T19:54:34Z", status: "True", type: SecurityGroupsReady }
    - { lastTransitionTime: "2024-02-02T19:54:34Z", status: "True", type: AMIsReady }
    - { lastTransitionTime: "2024-02-02T19:54:34Z", status: "True", type: Ready }
`;

/** examples/v1/multiple-ebs.yaml and security-group-with-vpc.yaml (EC2NodeClass parts). */
export const EXAMPLE_NODE_CLASSES = `
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: multiple-ebs
  annotations:
    kubernetes.io/description: "EC2NodeClass to provision multiple EBS volumes to attach to new nodes"
spec:
  role: "KarpenterNodeRole-my-cluster"
  subnetSelectorTerms: [{ tags: { karpenter.sh/discovery: "my-cluster" } }]
  securityGroupSelectorTerms: [{ tags: { karpenter.sh/discovery: "my-cluster" } }]
  amiSelectorTerms: [{ alias: al2023@latest }]
  blockDeviceMappings:
    - { deviceName: /dev/xvda, ebs: { volumeType: gp3, volumeSize: 20Gi, deleteOnTermination: true } }
    - { deviceName: /dev/xvdb, ebs: { volumeType: gp3, volumeSize: 100Gi, deleteOnTermination: true } }
    - { deviceName: /dev/xvdc, ebs: { volumeType: gp3, volumeSize: 2000Gi, deleteOnTermination: true } }
---
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: security-group-with-vpc
spec:
  securityGroupSelectorTerms:
    - { name: k8s-node, vpcID: vpc-12345678 }
    - tags: { karpenter.sh/discovery: my-cluster, Environment: production }
      vpcID: vpc-12345678
  subnetSelectorTerms: [{ tags: { karpenter.sh/discovery: my-cluster } }]
  amiSelectorTerms: [{ alias: al2023@latest }]
  role: "KarpenterNodeRole-my-cluster"
---
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: ubuntu
spec:
  amiFamily: Custom
  role: "KarpenterNodeRole-my-cluster"
  subnetSelectorTerms: [{ tags: { Name: "*Public*" } }, { tags: { MyTag: "" } }]
  securityGroupSelectorTerms: [{ tags: { kubernetes.io/cluster/my-cluster: owned } }]
  amiSelectorTerms: [{ id: ami-placeholder }]
  blockDeviceMappings:
    - deviceName: '/dev/sda1'
      rootVolume: true
      ebs: { encrypted: true, volumeType: gp3, volumeSize: 20Gi }
`;

/** A NodeClaim as `kubectl get nodeclaims -o yaml` prints one for a running spot node. */
export const NODE_CLAIM_DUMP = `
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata:
  annotations:
    compatibility.karpenter.k8s.aws/cluster-name-tagged: "true"
    karpenter.k8s.aws/ec2nodeclass-hash: "15535182697325354914"
    karpenter.k8s.aws/ec2nodeclass-hash-version: v4
    karpenter.k8s.aws/tagged: "true"
    karpenter.sh/nodepool-hash: "4010951020068392240"
    karpenter.sh/nodepool-hash-version: v3
  creationTimestamp: "2024-08-07T15:19:49Z"
  finalizers:
    - karpenter.sh/termination
  generateName: default-
  generation: 1
  labels:
    karpenter.k8s.aws/instance-category: c
    karpenter.k8s.aws/instance-family: c6g
    karpenter.k8s.aws/instance-size: large
    karpenter.sh/capacity-type: spot
    karpenter.sh/nodepool: default
    kubernetes.io/arch: arm64
    kubernetes.io/os: linux
    node.kubernetes.io/instance-type: c6g.large
    topology.k8s.aws/zone-id: usw2-az3
    topology.kubernetes.io/region: us-west-2
    topology.kubernetes.io/zone: us-west-2c
  name: default-8tcjh
  ownerReferences:
    - apiVersion: karpenter.sh/v1
      blockOwnerDeletion: true
      kind: NodePool
      name: default
      uid: 8d1fc4d4-8d6e-4a0e-9d59-3f8c1b2a7c11
  resourceVersion: "20241"
  uid: 2a5f0b8e-4f6c-4f5e-8c2d-1b9e7a3d6f42
spec:
  expireAfter: 720h
  nodeClassRef:
    group: karpenter.k8s.aws
    kind: EC2NodeClass
    name: default
  requirements:
    - key: karpenter.sh/nodepool
      operator: In
      values: [default]
    - key: karpenter.k8s.aws/ec2nodeclass
      operator: In
      values: [default]
    - key: kubernetes.io/arch
      operator: In
      values: [amd64, arm64]
    - key: karpenter.sh/capacity-type
      operator: In
      values: [spot]
    - key: node.kubernetes.io/instance-type
      operator: In
      values: [c6g.large, c7g.large, m6g.large]
  resources:
    requests:
      cpu: 210m
      memory: 75Mi
      pods: "4"
status:
  allocatable:
    cpu: 1930m
    ephemeral-storage: 17Gi
    memory: 3055Mi
    pods: "29"
    vpc.amazonaws.com/pod-eni: "9"
  capacity:
    cpu: "2"
    ephemeral-storage: 20Gi
    memory: 3786Mi
    pods: "29"
    vpc.amazonaws.com/pod-eni: "9"
  conditions:
    - { lastTransitionTime: "2024-08-07T15:20:49Z", message: "", reason: Consolidatable, status: "True", type: Consolidatable }
    - { lastTransitionTime: "2024-08-07T15:20:10Z", message: "", reason: Initialized, status: "True", type: Initialized }
    - { lastTransitionTime: "2024-08-07T15:19:51Z", message: "", reason: Launched, status: "True", type: Launched }
    - { lastTransitionTime: "2024-08-07T15:20:10Z", message: "", reason: Ready, status: "True", type: Ready }
    - { lastTransitionTime: "2024-08-07T15:20:05Z", message: "", reason: Registered, status: "True", type: Registered }
  imageID: ami-0b4e2c1a3f5d6e7f8
  lastPodEventTime: "2024-08-07T15:20:49Z"
  nodeName: ip-192-168-71-87.us-west-2.compute.internal
  providerID: aws:///us-west-2c/i-0a1b2c3d4e5f67890
`;

export function documentsOf(text: string): unknown[] {
  return parseAllDocuments(text).map((doc) => doc.toJS());
}

export function documentOf(text: string): unknown {
  return parse(text);
}
