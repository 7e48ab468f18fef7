/**
 * An HTTP API stage's throttling, as the template sets it (`AWS::ApiGatewayV2::Stage`
 * `DefaultRouteSettings` and `RouteSettings` by route key): API Gateway keeps a token bucket per
 * route, `ThrottlingBurstLimit` tokens deep, refilled at `ThrottlingRateLimit` a second, and
 * answers a request that finds it empty with 429 `Too Many Requests` before any integration runs
 * (Amazon API Gateway Developer Guide, "Throttle requests to your HTTP APIs"). Time is the
 * simulated clock's.
 */
import { type CloudFormationTemplate, resourcesOfType } from '../synthesis/cloud-assembly.ts';

export interface ThrottleLimit {
  readonly burst: number;
  /** Requests a second. */
  readonly rate: number;
}

export interface StageThrottling {
  readonly byDefault?: ThrottleLimit;
  /** By route key, `POST /v1/wake/{token}`. */
  readonly routes: ReadonlyMap<string, ThrottleLimit>;
}

function limitOf(settings: unknown): ThrottleLimit | undefined {
  const { ThrottlingBurstLimit: burst, ThrottlingRateLimit: rate } = (settings ?? {}) as {
    ThrottlingBurstLimit?: number;
    ThrottlingRateLimit?: number;
  };
  return burst === undefined || rate === undefined ? undefined : { burst, rate };
}

/** The throttling of the template's one HTTP API stage; none when it sets none. */
export function stageThrottling(template: CloudFormationTemplate): StageThrottling {
  const [stage] = resourcesOfType(template, 'AWS::ApiGatewayV2::Stage');
  const routeSettings = (stage?.[1].RouteSettings ?? {}) as Record<string, unknown>;
  const routes = new Map<string, ThrottleLimit>();
  for (const [routeKey, settings] of Object.entries(routeSettings)) {
    const limit = limitOf(settings);
    if (limit !== undefined) routes.set(routeKey, limit);
  }
  const byDefault = limitOf(stage?.[1].DefaultRouteSettings);
  return { ...(byDefault === undefined ? {} : { byDefault }), routes };
}

/** One token bucket per route; `take` says whether the request may go on. */
export class ThrottleBuckets {
  readonly #throttling: StageThrottling;
  readonly #now: () => number;
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(throttling: StageThrottling, now: () => number) {
    this.#throttling = throttling;
    this.#now = now;
  }

  take(routeKey: string): boolean {
    const limit = this.#throttling.routes.get(routeKey) ?? this.#throttling.byDefault;
    if (limit === undefined) return true;
    const now = this.#now();
    const bucket = this.#buckets.get(routeKey) ?? { tokens: limit.burst, at: now };
    bucket.tokens = Math.min(limit.burst, bucket.tokens + ((now - bucket.at) / 1000) * limit.rate);
    bucket.at = now;
    this.#buckets.set(routeKey, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}
