/** What a route is and answers: a method and path with its handler, and JSON replies. */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export type Reply = APIGatewayProxyStructuredResultV2;
type RouteHandler = (event: APIGatewayProxyEventV2) => Promise<Reply>;

export interface Route {
  readonly method: 'GET' | 'PUT' | 'PATCH' | 'DELETE' | 'POST';
  readonly path: string;
  readonly handler: RouteHandler;
}

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}) {
  return {
    statusCode,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}
