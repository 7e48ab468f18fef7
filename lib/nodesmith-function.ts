/**
 * One of Nodesmith's functions as every one of them is built: bundled from its composition
 * root under functions/handlers by esbuild as function-bundling.ts says (ESM, minified with
 * names kept for stack traces, the SDK inside, split where the code defers with `import()`),
 * Node.js 22 on arm64, its own log group with the deployment's retention, and an environment
 * set only here.
 */
import { fileURLToPath } from 'node:url';
import {
  AssetHashType,
  DockerImage,
  type Duration,
  type ILocalBundling,
  RemovalPolicy,
  Validations,
} from 'aws-cdk-lib';
import type { ISecurityGroup, IVpc, SubnetSelection } from 'aws-cdk-lib/aws-ec2';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  Architecture,
  Code,
  Function as LambdaFunction,
  LoggingFormat,
  Runtime,
} from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { bundleFunction, FUNCTION_ENTRY, type HandlerFolder } from './function-bundling.ts';

const VPC_ACCESS_POLICY = 'service-role/AWSLambdaVPCAccessExecutionRole';

export interface NodesmithFunctionProps {
  readonly handlerFolder: HandlerFolder;
  /** The exported handler of the folder's index.ts. @default 'handler' */
  readonly handlerExport?: string;
  readonly description: string;
  readonly timeout: Duration;
  /** @default 512 */
  readonly memorySize?: number;
  readonly environment: Readonly<Record<string, string>>;
  readonly logRetention: RetentionDays;
  /** @default - no limit beyond the account's */
  readonly reservedConcurrentExecutions?: number;
  /** @default - outside any VPC */
  readonly vpc?: IVpc;
  readonly vpcSubnets?: SubnetSelection;
  readonly securityGroups?: ISecurityGroup[];
}

const projectFile = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

/**
 * esbuild in this process, as NodejsFunction bundles when esbuild is installed. CDK keys the
 * staged asset by the bundling options' data: the folder, a field, keeps one bundle per folder.
 */
class FunctionBundling implements ILocalBundling {
  readonly folder: HandlerFolder;
  readonly projectRoot: string;

  constructor(folder: HandlerFolder, projectRoot: string) {
    this.folder = folder;
    this.projectRoot = projectRoot;
  }

  tryBundle(outputDir: string): boolean {
    bundleFunction(this.folder, outputDir, this.projectRoot);
    return true;
  }
}

/**
 * The folder's bundle as the function's code, hashed by what esbuild wrote; the image is never
 * pulled, since esbuild runs here. A synth that skips bundling skips this too.
 */
function functionCode(folder: HandlerFolder): Code {
  const projectRoot = projectFile('');
  return Code.fromAsset(projectRoot, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      image: DockerImage.fromRegistry('dummy'),
      local: new FunctionBundling(folder, projectRoot),
    },
  });
}

/** Its own role, writing only to its own log group: no managed policy with logs on `*`. */
function functionRole(scope: Construct, props: NodesmithFunctionProps, logGroup: LogGroup): Role {
  const role = new Role(scope, 'Role', {
    assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    description: props.description,
  });
  logGroup.grantWrite(role);
  if (props.vpc !== undefined) {
    role.addManagedPolicy(ManagedPolicy.fromAwsManagedPolicyName(VPC_ACCESS_POLICY));
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/${VPC_ACCESS_POLICY}]`,
      reason:
        'the network interfaces Lambda manages in the VPC are exactly what this AWS-maintained policy allows; it changes with Lambda',
    });
  }
  return role;
}

export class NodesmithFunction extends Construct {
  readonly function: LambdaFunction;

  constructor(scope: Construct, id: string, props: NodesmithFunctionProps) {
    super(scope, id);
    const logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const role = functionRole(this, props, logGroup);
    this.function = new LambdaFunction(this, 'Resource', {
      code: functionCode(props.handlerFolder),
      handler: `${FUNCTION_ENTRY}.${props.handlerExport ?? 'handler'}`,
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout,
      role,
      logGroup,
      loggingFormat: LoggingFormat.JSON,
      environment: {
        ...props.environment,
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      },
      ...(props.reservedConcurrentExecutions === undefined
        ? {}
        : { reservedConcurrentExecutions: props.reservedConcurrentExecutions }),
      ...(props.vpc === undefined
        ? {}
        : { vpc: props.vpc, vpcSubnets: props.vpcSubnets, securityGroups: props.securityGroups }),
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'the bundle is built and tested for Node.js 22 (esbuild target node22); moving runtimes is a tested change, not an automatic one',
    });
  }
}
