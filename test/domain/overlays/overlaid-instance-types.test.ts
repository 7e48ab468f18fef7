/**
 * NodeOverlays laid over instance types, with cases ported from Karpenter's node overlay
 * controller suite (kubernetes-sigs/karpenter pkg/controllers/nodeoverlay/suite_test.go) and
 * the price arithmetic of cloudprovider.AdjustedPrice.
 */
import { describe, expect, it } from 'vitest';
import type { InstanceType } from '../../../functions/domain/instance-type.ts';
import { Label } from '../../../functions/domain/labels.ts';
import type { NodeOverlay } from '../../../functions/domain/overlays/node-overlay.ts';
import { overlaidPrice } from '../../../functions/domain/overlays/node-overlay.ts';
import { overlayInstanceTypes } from '../../../functions/domain/overlays/overlaid-instance-types.ts';
import type { NodeSelectorRequirement } from '../../../functions/domain/requirements/requirement.ts';
import {
  aGpuInstanceType,
  aNodePool,
  anInstanceType,
  instanceTypesFor,
} from '../../support/builders.ts';

function anOverlay(
  name: string,
  requirements: NodeSelectorRequirement[],
  spec: Omit<NodeOverlay['spec'], 'requirements'>,
): NodeOverlay {
  return { metadata: { name }, spec: { requirements, ...spec } };
}

const typeIn = (...values: string[]): NodeSelectorRequirement => ({
  key: Label.instanceType,
  operator: 'In',
  values,
});

const TYPES = [
  anInstanceType({ name: 'default-instance-type', cpu: 4, memoryGiB: 16, price: 1 }),
  anInstanceType({ name: 'small-instance-type', cpu: 2, memoryGiB: 8, price: 0.5 }),
  anInstanceType({ name: 'gpu-vendor-instance-type', cpu: 8, memoryGiB: 32, price: 3 }),
];
const POOL = aNodePool({ name: 'default' });

function overlaid(overlays: NodeOverlay[], pools = [POOL]) {
  return overlayInstanceTypes(pools, instanceTypesFor(pools, TYPES), overlays);
}

function typeOf(types: ReadonlyMap<string, readonly InstanceType[]>, pool: string, name: string) {
  const type = types.get(pool)?.find((t) => t.name === name);
  if (type === undefined) throw new Error(`no ${name} in ${pool}`);
  return type;
}

function onDemandPrice(type: InstanceType): number | undefined {
  return type.offerings.find((o) => o.capacityType === 'on-demand')?.pricePerHour;
}

describe('overlaidPrice', () => {
  it.each([
    ['1.03', 0.5, 1.03],
    ['+0.5', 1, 1.5],
    ['-0.25', 1, 0.75],
    ['+10%', 2, 2.2],
    ['-15%', 2, 1.7],
    ['-100%', 2, 0],
    ['-5', 1, 0],
  ])('%s on %d gives %d', (change, price, expected) => {
    // Act
    const result = overlaidPrice(price, change);

    // Assess
    expect(result).toBeCloseTo(expected, 10);
  });
});

describe('overlayInstanceTypes', () => {
  it('returns the same instance types when no overlay is given', () => {
    // Prepare
    const types = instanceTypesFor([POOL], TYPES);

    // Act
    const result = overlayInstanceTypes([POOL], types, []);

    // Assess
    expect(result.instanceTypes).toBe(types);
    expect(result.conflicts).toEqual([]);
  });

  it('adjusts the price of every offering of the selected types only', () => {
    // Prepare
    const overlay = anOverlay('cheaper', [typeIn('default-instance-type')], {
      priceAdjustment: '-50%',
      weight: 10,
    });

    // Act
    const { instanceTypes } = overlaid([overlay]);

    // Assess
    const selected = typeOf(instanceTypes, 'default', 'default-instance-type');
    expect(selected.offerings.map((o) => o.pricePerHour)).toEqual(
      TYPES[0]?.offerings.map((o) => o.pricePerHour / 2),
    );
    expect(selected.offerings.filter((o) => o.priceOverlaid !== true)).toEqual([]);
    expect(typeOf(instanceTypes, 'default', 'small-instance-type')).toBe(TYPES[1]);
  });

  it('prices only the offerings of the capacity type and zone it names', () => {
    // Prepare
    const overlay = anOverlay(
      'spot-in-a',
      [
        { key: Label.capacityType, operator: 'In', values: ['spot'] },
        { key: Label.zone, operator: 'In', values: ['test-zone-a'] },
      ],
      { price: '0.01' },
    );

    // Act
    const { instanceTypes } = overlaid([overlay]);

    // Assess
    const type = typeOf(instanceTypes, 'default', 'small-instance-type');
    const changed = type.offerings
      .filter((o) => o.priceOverlaid)
      .map((o) => o.zone + o.capacityType);
    expect(changed).toEqual(['test-zone-aspot']);
    expect(onDemandPrice(type)).toBe(0.5);
  });

  it('adds extended resources to capacity and allocatable, replacing the type’s own', () => {
    // Prepare
    const gpu = aGpuInstanceType('g4dn.xlarge', 0.526, {
      labels: { [Label.instanceGpuCount]: '1' },
    });
    const overlay = anOverlay(
      'gpu-slices-1gpu',
      [{ key: Label.instanceGpuCount, operator: 'In', values: ['1'] }],
      { capacity: { 'nvidia.com/gpu': 4 }, weight: 10 },
    );

    // Act
    const { instanceTypes } = overlayInstanceTypes(
      [POOL],
      instanceTypesFor([POOL], [gpu, ...TYPES]),
      [overlay],
    );

    // Assess
    const sliced = typeOf(instanceTypes, 'default', 'g4dn.xlarge');
    expect(sliced.capacity['nvidia.com/gpu']).toBe(4);
    expect(sliced.allocatable['nvidia.com/gpu']).toBe(4);
    expect(sliced.capacityOverlaid).toBe(true);
    // A type without the label is not selected: the requirement needs a value it lacks.
    expect(typeOf(instanceTypes, 'default', 'small-instance-type')).toBe(TYPES[1]);
  });

  it('applies only to the NodePool it names, and to pools whose template labels match', () => {
    // Prepare
    const team = aNodePool({ name: 'team-alpha', labels: { team: 'alpha' } });
    const overlays = [
      anOverlay('by-pool', [{ key: Label.nodePool, operator: 'In', values: ['team-alpha'] }], {
        priceAdjustment: '+45%',
      }),
      anOverlay('by-label', [{ key: 'team', operator: 'In', values: ['alpha'] }], {
        capacity: { 'smarter-devices/fuse': 1 },
      }),
    ];

    // Act
    const { instanceTypes, conflicts } = overlaid(overlays, [POOL, team]);

    // Assess
    expect(conflicts).toEqual([]);
    expect(onDemandPrice(typeOf(instanceTypes, 'team-alpha', 'default-instance-type'))).toBeCloseTo(
      1.45,
    );
    expect(
      typeOf(instanceTypes, 'team-alpha', 'default-instance-type').capacity['smarter-devices/fuse'],
    ).toBe(1);
    expect(typeOf(instanceTypes, 'default', 'default-instance-type')).toBe(TYPES[0]);
  });

  describe('precedence and conflicts', () => {
    it.each([
      ['price', { price: '1.03' }, { price: '23' }],
      ['priceAdjustment', { priceAdjustment: '+54' }, { priceAdjustment: '-2' }],
      ['the same price', { price: '100' }, { price: '100' }],
      [
        'capacity',
        { capacity: { 'smarter-devices/fuse': 54 } },
        { capacity: { 'smarter-devices/fuse': 54 } },
      ],
    ])(
      'two overlays of one weight setting %s on a shared type conflict; the later name holds',
      (_, a, b) => {
        // Prepare
        const overlayA = anOverlay(
          'overlay-a',
          [typeIn('default-instance-type', 'small-instance-type')],
          { ...a, weight: 10 },
        );
        const overlayB = anOverlay(
          'overlay-b',
          [typeIn('default-instance-type', 'gpu-vendor-instance-type')],
          { ...b, weight: 10 },
        );

        // Act
        const { conflicts } = overlaid([overlayA, overlayB]);

        // Assess
        expect(conflicts).toEqual([{ overlay: 'overlay-a', with: 'overlay-b' }]);
      },
    );

    it('a conflicting overlay is applied nowhere, not even to types no other overlay touches', () => {
      // Prepare
      const overlayA = anOverlay(
        'overlay-a',
        [typeIn('default-instance-type', 'small-instance-type')],
        { price: '9', weight: 10 },
      );
      const overlayB = anOverlay('overlay-b', [typeIn('default-instance-type')], {
        price: '7',
        weight: 10,
      });

      // Act
      const { instanceTypes } = overlaid([overlayA, overlayB]);

      // Assess
      expect(onDemandPrice(typeOf(instanceTypes, 'default', 'default-instance-type'))).toBe(7);
      expect(typeOf(instanceTypes, 'default', 'small-instance-type')).toBe(TYPES[1]);
    });

    it('overlays with mutually exclusive requirements do not conflict', () => {
      // Prepare
      const overlayA = anOverlay('overlay-a', [typeIn('default-instance-type')], {
        price: '54',
        weight: 10,
      });
      const overlayB = anOverlay(
        'overlay-b',
        [{ key: Label.instanceType, operator: 'NotIn', values: ['default-instance-type'] }],
        { price: '23', weight: 10 },
      );

      // Act
      const { instanceTypes, conflicts } = overlaid([overlayA, overlayB]);

      // Assess
      expect(conflicts).toEqual([]);
      expect(onDemandPrice(typeOf(instanceTypes, 'default', 'default-instance-type'))).toBe(54);
      expect(onDemandPrice(typeOf(instanceTypes, 'default', 'small-instance-type'))).toBe(23);
    });

    it('the heavier overlay holds where two of different weights meet, without conflict', () => {
      // Prepare
      const overlayA = anOverlay('overlay-a', [typeIn('default-instance-type')], {
        price: '34',
        weight: 10,
      });
      const overlayB = anOverlay(
        'overlay-b',
        [typeIn('default-instance-type', 'gpu-vendor-instance-type')],
        { price: '2', weight: 20 },
      );

      // Act
      const { instanceTypes, conflicts } = overlaid([overlayA, overlayB]);

      // Assess
      expect(conflicts).toEqual([]);
      expect(onDemandPrice(typeOf(instanceTypes, 'default', 'default-instance-type'))).toBe(2);
    });

    it('capacity overlays of one weight conflict only on a shared resource', () => {
      // Prepare: ported from "should fail with conflicting capacity overlays with multiple overlays"
      const overlays = [
        anOverlay(
          'conflicting-overlay-1',
          [typeIn('default-instance-type', 'small-instance-type')],
          {
            capacity: { 'hugepages-1Gi': '2Gi' },
            weight: 10,
          },
        ),
        anOverlay('good-overlay-1', [typeIn('default-instance-type')], {
          capacity: { 'smarter-devices/fuse': 1 },
          weight: 10,
        }),
        anOverlay('conflicting-overlay-2', [typeIn('default-instance-type')], {
          capacity: { 'hugepages-1Gi': '3Gi' },
          weight: 10,
        }),
      ];

      // Act
      const { instanceTypes, conflicts } = overlaid(overlays);

      // Assess
      expect(conflicts).toEqual([
        { overlay: 'conflicting-overlay-1', with: 'conflicting-overlay-2' },
      ]);
      const type = typeOf(instanceTypes, 'default', 'default-instance-type');
      expect(type.capacity['hugepages-1Gi']).toBe(3 * 1024 ** 3);
      expect(type.capacity['smarter-devices/fuse']).toBe(1);
    });

    it('a lower weight adds the resources the heavier one left unset', () => {
      // Prepare
      const overlays = [
        anOverlay('light', [typeIn('default-instance-type')], {
          capacity: { 'smarter-devices/fuse': 2, 'example.com/dongle': 1 },
          weight: 5,
        }),
        anOverlay('heavy', [typeIn('default-instance-type')], {
          capacity: { 'smarter-devices/fuse': 8 },
          weight: 50,
        }),
      ];

      // Act
      const { instanceTypes } = overlaid(overlays);

      // Assess
      const type = typeOf(instanceTypes, 'default', 'default-instance-type');
      expect(type.capacity['smarter-devices/fuse']).toBe(8);
      expect(type.capacity['example.com/dongle']).toBe(1);
    });

    it('a price overlay and a capacity overlay of one weight both apply to one type', () => {
      // Prepare
      const overlays = [
        anOverlay('price', [typeIn('default-instance-type')], { price: '0.2', weight: 10 }),
        anOverlay('capacity', [typeIn('default-instance-type')], {
          capacity: { 'smarter-devices/fuse': 1 },
          weight: 10,
        }),
      ];

      // Act
      const { instanceTypes, conflicts } = overlaid(overlays);

      // Assess
      expect(conflicts).toEqual([]);
      const type = typeOf(instanceTypes, 'default', 'default-instance-type');
      expect(onDemandPrice(type)).toBe(0.2);
      expect(type.capacity['smarter-devices/fuse']).toBe(1);
    });
  });
});
