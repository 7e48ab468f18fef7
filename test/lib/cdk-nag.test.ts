/**
 * cdk-nag's AwsSolutions rules over both shapes of the stack (EKS, and self-managed in a VPC):
 * no finding is left unacknowledged, and each acknowledgement in lib/ carries its reason.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validations } from 'aws-cdk-lib';
import { PolicyStatement, type Role } from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { buildStack, EKS_CONTEXT, SELF_MANAGED_CONTEXT } from './stack-fixture.ts';

function findings(context: Record<string, unknown>): string[] {
  const { app, outdir } = buildStack(context);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  try {
    app.synth();
    return [];
  } catch (err) {
    const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8'));
    const violations = report.pluginReports.flatMap((r: any) => r.violations);
    return violations.length > 0
      ? violations.map((v: any) => `${v.ruleName}: ${v.description}`)
      : [(err as Error).message];
  }
}

describe('cdk-nag AwsSolutions', () => {
  it('finds nothing unacknowledged in a stack for an EKS cluster', () => {
    expect(findings(EKS_CONTEXT)).toEqual([]);
  }, 60_000);

  it('finds nothing unacknowledged in a stack for a self-managed cluster in a VPC', () => {
    expect(findings(SELF_MANAGED_CONTEXT)).toEqual([]);
  }, 60_000);

  it('still finds what an acknowledgement does not cover', () => {
    const { app, stack, outdir } = buildStack(EKS_CONTEXT);
    // A second, unacknowledged wildcard on the controller's role must be reported.
    const role = stack.node.findChild('Controller').node.findChild('Role') as Role;
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['s3:GetObject'], resources: ['arn:aws:s3:::bucket/*'] }),
    );
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth()).toThrow();
    const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8'));
    const rules = report.pluginReports.flatMap((r: any) =>
      r.violations.map((v: any) => v.ruleName),
    );
    expect(rules.join('\n')).toContain('AwsSolutions-IAM5');
  }, 60_000);
});
