/**
 * Functions of a few lines for the Lambda runtime's tests: each written as a bundle directory
 * (`index.mjs`) and defined as a template would define it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FunctionDefinition } from '../../../simulator/lambda/function-definition.ts';
import type { RoleCredentials } from '../../../simulator/lambda/lambda-environment.ts';

export const ROLE_KEYS: RoleCredentials = {
  accessKeyId: 'AKIASIMULATEDFIXTURE',
  secretAccessKey: 'fixture-secret',
  sessionToken: 'fixture-session',
};

/** A function whose `index.mjs` holds `code`. */
export function aFunction(
  code: string,
  overrides: Partial<FunctionDefinition> = {},
): FunctionDefinition {
  const codeDirectory = mkdtempSync(join(tmpdir(), 'lambda-fixture-'));
  writeFileSync(join(codeDirectory, 'index.mjs'), code);
  return {
    logicalId: 'Fixture',
    functionName: 'Nodesmith-shop-Fixture',
    functionArn: 'arn:aws:lambda:us-east-1:111122223333:function:Nodesmith-shop-Fixture',
    codeDirectory,
    handler: 'index.handler',
    runtime: 'nodejs22.x',
    memorySize: 256,
    timeoutSeconds: 10,
    reservedConcurrency: undefined,
    roleArn: 'arn:aws:iam::111122223333:role/Nodesmith-shop-FixtureRole',
    logGroupName: '/aws/lambda/Nodesmith-shop-Fixture',
    logFormat: 'JSON',
    environment: { CLUSTER_NAME: 'shop' },
    ...overrides,
  };
}
