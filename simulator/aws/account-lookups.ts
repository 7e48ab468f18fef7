/**
 * What the authorizer reads from the simulated account (simulator/iam/authorization-lookups.ts),
 * from the services that hold it: resource tags, launch templates and placement groups from
 * EC2, instance profiles, their tags and the roles from IAM, secrets from whoever holds them.
 */
import type { AuthorizationLookups } from '../iam/authorization-lookups.ts';
import type { Ec2Service } from './ec2/ec2-service.ts';
import type { IamService } from './iam/iam-service.ts';

export interface AccountServices {
  readonly ec2: Pick<Ec2Service, 'tagsOf' | 'launchTemplate' | 'placementGroupName'>;
  readonly iam: Pick<IamService, 'tagsOf' | 'instanceProfile' | 'roleArn'>;
  /** A secret's full ARN by name or ARN, when the account holds secrets. */
  readonly secretArn?: (secretId: string) => string | undefined;
}

/** `arn:aws:ec2:…` → `ec2`. */
function serviceOf(arn: string): string {
  return arn.split(':')[2] ?? '';
}

export function accountLookups(services: AccountServices): AuthorizationLookups {
  return {
    tagsOf: (arn) => {
      const service = serviceOf(arn);
      if (service === 'ec2') return services.ec2.tagsOf(arn);
      if (service === 'iam') return services.iam.tagsOf(arn);
      return undefined;
    },
    launchTemplate: (spec) => services.ec2.launchTemplate(spec),
    placementGroupName: (id) => services.ec2.placementGroupName(id),
    instanceProfile: (name) => services.iam.instanceProfile(name),
    roleArn: (name) => services.iam.roleArn(name),
    secretArn: (secretId) => services.secretArn?.(secretId),
  };
}
