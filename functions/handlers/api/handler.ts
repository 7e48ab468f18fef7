/**
 * The API function's middy chain (docs/design.md §1.1, `api`): API Gateway has checked the caller's
 * SigV4 signature against IAM before the function runs; the router picks the route, and every
 * refusal becomes a JSON body with the status that fits it — 400 naming the field, 404, 405 with
 * the methods the path takes, 409 for a stale resourceVersion, 413, 422 for an update a transition
 * rule refuses (naming the field) — while anything unexpected is
 * logged and answered 500 without its details.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import httpRouterHandler from '@middy/http-router';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { ConflictError, NotFoundError, ThrottledError } from '../../ports/errors.ts';
import { InvalidUpdateError } from '../../use-cases/pools/invalid-update.ts';
import { ApiError } from './api-error.ts';
import { json, type Reply, type Route } from './reply.ts';
import { type ApiDependencies, apiRoutes } from './routes.ts';

export type ApiHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<Reply>;

/** The path as a pattern: `/v1/nodepools/{name}` matches `/v1/nodepools/default`. */
function matcher(path: string): RegExp {
  return new RegExp(`^${path.replace(/\{[^/]+\}/g, '[^/]+')}/?$`);
}

/** 405 with the methods the path takes, or 404 when no route has the path. */
function notFound(routes: readonly Route[]) {
  return ({ method, path }: { method: string; path: string }): never => {
    const allowed = routes.filter((r) => matcher(r.path).test(path)).map((r) => r.method);
    if (allowed.length === 0) throw new ApiError(404, `no route ${path}`);
    const allow = [...new Set(allowed)].join(', ');
    throw new ApiError(405, `${path} does not take ${method}; it takes ${allow}`, {}, { allow });
  };
}

function errorReply(error: unknown, logger: Logger): Reply {
  if (error instanceof ApiError) {
    return json(error.statusCode, { error: error.message, ...error.details }, { ...error.headers });
  }
  if (error instanceof InvalidUpdateError) {
    return json(422, { error: error.message, field: error.field });
  }
  if (error instanceof ConflictError) return json(409, { error: error.message });
  if (error instanceof NotFoundError) return json(404, { error: error.message });
  if (error instanceof ThrottledError) {
    return json(503, { error: 'the state store is busy; retry shortly' }, { 'retry-after': '2' });
  }
  logger.error('request failed', { error: error as Error });
  return json(500, { error: 'internal error; the function log has the details' });
}

export function makeApiHandler(deps: ApiDependencies & { readonly logger?: Logger }): ApiHandler {
  const logger = deps.logger ?? new Logger({ serviceName: 'nodesmith-api' });
  const routes = apiRoutes(deps);
  const router = httpRouterHandler({ routes, notFoundResponse: notFound(routes) });
  return middy(router)
    .use(injectLambdaContext(logger))
    .use({
      onError: (request) => {
        request.response = errorReply(request.error, logger);
      },
    }) as unknown as ApiHandler;
}
