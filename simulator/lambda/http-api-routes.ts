/**
 * The routes of the template's HTTP API (`AWS::ApiGatewayV2::Route` and the Lambda proxy
 * integration each targets), and how API Gateway picks one for a request: an exact path before a
 * path with parameters, those before a greedy `{proxy+}`, a method before `ANY`, `$default` last
 * (Amazon API Gateway Developer Guide, "Working with routes for HTTP APIs").
 */
import { type CloudFormationTemplate, resourcesOfType } from '../synthesis/cloud-assembly.ts';

export interface HttpApiRoute {
  /** `POST /v1/audit`, `ANY /v1/{proxy+}`, `$default`. */
  readonly routeKey: string;
  /** `NONE` or `AWS_IAM` (SigV4-signed requests only). */
  readonly authorizationType: string;
  /** The logical id of the function its integration invokes. */
  readonly functionLogicalId: string;
  /** `2.0` or `1.0`: the shape of the event the function gets. */
  readonly payloadFormatVersion: string;
}

export interface MatchedRoute {
  readonly route: HttpApiRoute;
  readonly pathParameters: Readonly<Record<string, string>>;
}

/** The logical id a `Ref` somewhere in the value names. */
function referenced(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if ('Ref' in value) return String(value.Ref);
  if ('Fn::GetAtt' in value) return String((value['Fn::GetAtt'] as unknown[])[0]);
  for (const inner of Object.values(value)) {
    const found = referenced(inner);
    if (found !== undefined) return found;
  }
  return undefined;
}

export function httpApiRoutes(template: CloudFormationTemplate): HttpApiRoute[] {
  return resourcesOfType(template, 'AWS::ApiGatewayV2::Route').map(([, route]) => {
    const integration = template.Resources[referenced(route.Target) ?? '']?.Properties ?? {};
    return {
      routeKey: String(route.RouteKey),
      authorizationType: String(route.AuthorizationType ?? 'NONE'),
      functionLogicalId: referenced(integration.IntegrationUri) ?? '',
      payloadFormatVersion: String(integration.PayloadFormatVersion ?? '2.0'),
    };
  });
}

/** One segment of a route's path as a pattern: `{name}` one segment, `{name+}` the rest. */
function segmentPattern(part: string, names: string[]): string {
  const parameter = /^\{(.+?)(\+?)\}$/.exec(part);
  if (parameter === null) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  names.push(parameter[1] ?? '');
  return parameter[2] === '+' ? '(.+)' : '([^/]+)';
}

/** The route's path parameters when it matches the path; undefined when it does not. */
function parametersOf(routePath: string, path: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = routePath
    .split('/')
    .map((part) => segmentPattern(part, names))
    .join('/');
  const match = new RegExp(`^${pattern}$`).exec(path);
  if (match === null) return undefined;
  return Object.fromEntries(names.map((name, i) => [name, match[i + 1] ?? '']));
}

/** Lower ranks first: exact paths, then parameters, then greedy paths; a method before ANY. */
function rank(route: HttpApiRoute): number {
  const [method = '', path = ''] = route.routeKey.split(' ');
  const pathRank = path.includes('+}') ? 2 : path.includes('{') ? 1 : 0;
  return pathRank * 2 + (method === 'ANY' ? 1 : 0);
}

export function matchRoute(
  routes: readonly HttpApiRoute[],
  method: string,
  path: string,
): MatchedRoute | undefined {
  const candidates = routes
    .filter((r) => r.routeKey !== '$default')
    .sort((a, b) => rank(a) - rank(b));
  for (const route of candidates) {
    const [routeMethod, routePath = ''] = route.routeKey.split(' ');
    if (routeMethod !== 'ANY' && routeMethod !== method) continue;
    const pathParameters = parametersOf(routePath, path);
    if (pathParameters !== undefined) return { route, pathParameters };
  }
  const fallback = routes.find((r) => r.routeKey === '$default');
  return fallback === undefined ? undefined : { route: fallback, pathParameters: {} };
}
