/**
 * The template's EventBridge rules (`AWS::Events::Rule`) as rule definitions for the simulated
 * EventBridge: each rule's name, bus, event pattern or schedule expression, and targets with the
 * input each sends (`Input`, `InputPath`, `InputTransformer`), as EventBridge's PutRule and
 * PutTargets take them.
 */
import { type CloudFormationTemplate, resourcesOfType } from '../synthesis/cloud-assembly.ts';
import type { ResolveValue } from './template-resolver.ts';

export interface RuleTarget {
  readonly id: string;
  readonly arn: string;
  /** A constant JSON text sent instead of the event. */
  readonly input?: string;
  /** The part of the event sent instead of the whole: `$.detail`. */
  readonly inputPath?: string;
  readonly inputTransformer?: {
    readonly inputPathsMap?: Readonly<Record<string, string>>;
    readonly inputTemplate: string;
  };
  /** Where EventBridge keeps an event it could not deliver. */
  readonly deadLetterArn?: string;
}

export interface RuleDefinition {
  readonly name: string;
  readonly arn: string;
  readonly eventBusName: string;
  readonly eventPattern?: Readonly<Record<string, unknown>>;
  /** `rate(1 minute)`, `cron(0 12 * * ? *)`. */
  readonly scheduleExpression?: string;
  readonly enabled: boolean;
  readonly targets: readonly RuleTarget[];
}

interface TemplateTarget {
  readonly Id: string;
  readonly Arn: unknown;
  readonly Input?: unknown;
  readonly InputPath?: string;
  readonly InputTransformer?: { InputPathsMap?: Record<string, string>; InputTemplate: string };
  readonly DeadLetterConfig?: { Arn: unknown };
}

function targetOf(target: TemplateTarget, resolve: ResolveValue): RuleTarget {
  const transformer = target.InputTransformer;
  return {
    id: target.Id,
    arn: resolve(target.Arn),
    ...(target.Input === undefined ? {} : { input: resolve(target.Input) }),
    ...(target.InputPath === undefined ? {} : { inputPath: target.InputPath }),
    ...(transformer === undefined
      ? {}
      : {
          inputTransformer: {
            ...(transformer.InputPathsMap === undefined
              ? {}
              : { inputPathsMap: transformer.InputPathsMap }),
            inputTemplate: transformer.InputTemplate,
          },
        }),
    ...(target.DeadLetterConfig === undefined
      ? {}
      : { deadLetterArn: resolve(target.DeadLetterConfig.Arn) }),
  };
}

export function eventRules(
  template: CloudFormationTemplate,
  resolve: ResolveValue,
): RuleDefinition[] {
  return resourcesOfType(template, 'AWS::Events::Rule').map(([id, p]) => ({
    name: resolve({ Ref: id }),
    arn: resolve({ 'Fn::GetAtt': [id, 'Arn'] }),
    eventBusName: p.EventBusName === undefined ? 'default' : resolve(p.EventBusName),
    ...(p.EventPattern === undefined
      ? {}
      : { eventPattern: p.EventPattern as Record<string, unknown> }),
    ...(p.ScheduleExpression === undefined
      ? {}
      : { scheduleExpression: String(p.ScheduleExpression) }),
    enabled: p.State !== 'DISABLED',
    targets: ((p.Targets as TemplateTarget[]) ?? []).map((t) => targetOf(t, resolve)),
  }));
}
