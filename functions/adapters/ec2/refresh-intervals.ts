/**
 * How long discovered facts are trusted before EC2 is asked again: Karpenter's intervals
 * (aws: pkg/cache/cache.go, pkg/operator/options/options.go, pkg/controllers/providers/*).
 */
import { HOUR_MS, MINUTE_MS } from '../cache/ttl-cache.ts';

export const RefreshInterval = {
  /** `SUBNET_REFRESH_INTERVAL`: subnets and their free IPs, security groups. */
  subnetsMs: MINUTE_MS,
  securityGroupsMs: MINUTE_MS,
  /** Capacity reservations and their free instances (`DefaultTTL`). */
  capacityReservationsMs: MINUTE_MS,
  /** `AMI_REFRESH_INTERVAL`. */
  amisMs: MINUTE_MS,
  /** AMI alias parameters in SSM change when a new AMI is published, at most daily. */
  ssmParametersMs: 24 * HOUR_MS,
  instanceProfilesMs: 15 * MINUTE_MS,
  /** Karpenter's placement group cache (aws: pkg/cache/cache.go, `DefaultTTL`). */
  placementGroupsMs: MINUTE_MS,
  /**
   * A launch template known to exist: for the container's life. Karpenter forgets one after a
   * minute unused because it then deletes it (aws: pkg/providers/launchtemplate/launchtemplate.go
   * `cachedEvictedFunc`); Nodesmith never deletes one, and a template removed by hand is noticed
   * at CreateFleet, forgotten and made again.
   */
  launchTemplatesMs: Number.POSITIVE_INFINITY,
  /** DescribeInstanceTypes and DescribeInstanceTypeOfferings. */
  instanceTypesMs: 12 * HOUR_MS,
  /** On-demand (Pricing API) and spot (DescribeSpotPriceHistory) prices. */
  pricesMs: 12 * HOUR_MS,
  /** After a failed refresh, the last good data is served this long before trying again. */
  retryAfterFailureMs: 5 * MINUTE_MS,
} as const;
