/**
 * The user data for an AMI family: nodeadm MIME for AL2023, TOML for Bottlerocket, the
 * EC2NodeClass's own user data unchanged for Custom AMIs. User data Nodesmith cannot read is a
 * configuration error, reported before anything is launched.
 */
import type { AmiFamily } from '../../../domain/node-class.ts';
import { InvalidConfigError } from '../../../ports/errors.ts';
import type { BootstrapOptions } from './bootstrap-options.ts';
import { bottlerocketUserData } from './bottlerocket.ts';
import { MimeError } from './mime.ts';
import { nodeadmUserData } from './nodeadm.ts';
import { TomlError } from './toml-cursor.ts';

function generate(family: AmiFamily, options: BootstrapOptions): string {
  switch (family) {
    case 'AL2023':
      return nodeadmUserData(options);
    case 'Bottlerocket':
      return bottlerocketUserData(options);
    case 'Custom':
      return options.customUserData ?? '';
    default:
      throw new InvalidConfigError(
        `generating user data: amiFamily ${family} is not supported; use AL2023, Bottlerocket or Custom`,
      );
  }
}

export function userDataFor(
  family: AmiFamily,
  options: BootstrapOptions,
  nodeClass: string,
): string {
  try {
    return generate(family, options);
  } catch (err) {
    if (err instanceof MimeError || err instanceof TomlError) {
      throw new InvalidConfigError(
        `merging the user data of ec2nodeclass ${nodeClass}: ${err.message}`,
        {
          cause: err,
        },
      );
    }
    throw err;
  }
}
