/**
 * The user data for an AMI family: nodeadm MIME for AL2023, bootstrap.sh MIME for AL2, TOML for
 * Bottlerocket, a PowerShell script for Windows, the EC2NodeClass's own user data unchanged for
 * Custom AMIs. User data Nodesmith cannot read is a configuration error, reported before anything
 * is launched.
 */
import { TomlError } from 'smol-toml';
import type { AmiFamily } from '../../../domain/node-class.ts';
import { InvalidConfigError } from '../../../ports/errors.ts';
import type { BootstrapOptions } from './bootstrap-options.ts';
import { bottlerocketUserData } from './bottlerocket.ts';
import { eksBootstrapUserData } from './eks-bootstrap.ts';
import { MimeError } from './mime.ts';
import { nodeadmUserData } from './nodeadm.ts';
import { windowsUserData } from './windows.ts';

function generate(family: AmiFamily, options: BootstrapOptions): string {
  switch (family) {
    case 'AL2':
      return eksBootstrapUserData(options);
    case 'AL2023':
      return nodeadmUserData(options);
    case 'Bottlerocket':
      return bottlerocketUserData(options);
    case 'Custom':
      return options.customUserData ?? '';
    case 'Windows2019':
    case 'Windows2022':
    case 'Windows2025':
      return windowsUserData(options);
    default:
      throw new InvalidConfigError(
        `generating user data: amiFamily ${family} is not supported; use AL2023, Bottlerocket or Custom`,
      );
  }
}

/**
 * What is wrong with the class's `spec.userData`. smol-toml's message ends with the offending
 * lines quoted, which may hold secrets, so only its first line and the position are kept.
 */
function userDataProblem(err: MimeError | TomlError): string {
  if (err instanceof MimeError) return `spec.userData: ${err.message}`;
  const detail = (err.message.split('\n')[0] ?? '').replace(/^Invalid TOML document: /, '');
  return `spec.userData is not valid TOML: ${detail} (line ${err.line}, column ${err.column})`;
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
        `merging the user data of ec2nodeclass ${nodeClass}: ${userDataProblem(err)}`,
        { cause: err },
      );
    }
    throw err;
  }
}
