import {
  DecryptionFailure,
  GetSecretValueCommand,
  InternalServiceError,
  ResourceNotFoundException,
} from '@aws-sdk/client-secrets-manager';
import { describe, expect, it } from 'vitest';
import { SecretClusterAccess } from '../../../functions/adapters/eks/secret-cluster-access.ts';
import {
  InvalidConfigError,
  NotFoundError,
  ThrottledError,
} from '../../../functions/ports/errors.ts';
import { aClock, CA_DATA, MINUTE, mockedClients, SECRET_ID, secretsError } from './support.ts';

const SERVER = 'https://10.0.12.7:6443';
const VALID = {
  endpoint: SERVER,
  certificateAuthorityData: CA_DATA,
  token: 'eyJhbGciOi.service-account',
};
const $metadata = { httpStatusCode: 400 };

function setUp() {
  const clients = mockedClients();
  const clock = aClock();
  const access = new SecretClusterAccess({
    secrets: clients.secrets,
    secretId: SECRET_ID,
    now: clock.now,
  });
  return { ...clients, clock, access };
}

function storing(secretsMock: ReturnType<typeof setUp>['secretsMock'], value: unknown): void {
  secretsMock
    .on(GetSecretValueCommand)
    .resolves({ Name: SECRET_ID, SecretString: JSON.stringify(value) });
}

async function failureOf(access: SecretClusterAccess): Promise<Error> {
  const error = await access.current().catch((err: unknown) => err);
  if (!(error instanceof Error)) throw new Error('expected the read to fail');
  return error;
}

describe('cluster access from a secret', () => {
  it('is the endpoint, ca data and token the secret holds', async () => {
    // Prepare
    const { access, secretsMock } = setUp();
    storing(secretsMock, VALID);
    // Act
    const read = await access.current();
    // Assess
    expect(read).toEqual({ server: SERVER, certificateAuthorityData: CA_DATA, token: VALID.token });
    expect(secretsMock.commandCalls(GetSecretValueCommand)[0]?.args[0].input).toEqual({
      SecretId: SECRET_ID,
    });
  });

  it('is read again five minutes later, so a rotated token arrives', async () => {
    // Prepare
    const { access, clock, secretsMock } = setUp();
    storing(secretsMock, VALID);
    await access.current();
    storing(secretsMock, { ...VALID, token: 'rotated' });
    clock.advance(5 * MINUTE - 1);
    const cached = await access.current();
    // Act
    clock.advance(1);
    const reread = await access.current();
    // Assess
    expect(cached.token).toBe(VALID.token);
    expect(reread.token).toBe('rotated');
    expect(secretsMock.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it.each(['endpoint', 'certificateAuthorityData', 'token'])(
    'fails naming the secret and the missing field %s',
    async (field) => {
      // Prepare
      const { access, secretsMock } = setUp();
      storing(secretsMock, { ...VALID, [field]: undefined });
      // Act
      const error = await failureOf(access);
      // Assess
      expect(error).toBeInstanceOf(InvalidConfigError);
      expect(error.message).toBe(
        `reading cluster access secret ${SECRET_ID}: missing field ${field}`,
      );
    },
  );

  it('names every field at fault at once', async () => {
    // Prepare
    const { access, secretsMock } = setUp();
    storing(secretsMock, { endpoint: 'http://10.0.12.7:6443', token: '' });
    // Act
    const error = await failureOf(access);
    // Assess
    expect(error.message).toBe(
      `reading cluster access secret ${SECRET_ID}: missing field certificateAuthorityData; ` +
        'field endpoint: expected an https:// url; field token: expected a non-empty string',
    );
  });

  it('refuses a ca given as pem text rather than base64', async () => {
    // Prepare
    const { access, secretsMock } = setUp();
    storing(secretsMock, {
      ...VALID,
      certificateAuthorityData: Buffer.from(CA_DATA, 'base64').toString(),
    });
    // Act
    const error = await failureOf(access);
    // Assess
    expect(error.message).toBe(
      `reading cluster access secret ${SECRET_ID}: field certificateAuthorityData: expected base64 of a pem certificate bundle`,
    );
  });

  it('refuses text that is not json without quoting it', async () => {
    // Prepare
    const { access, secretsMock } = setUp();
    secretsMock.on(GetSecretValueCommand).resolves({ SecretString: 'token=super-secret-value' });
    // Act
    const error = await failureOf(access);
    // Assess
    expect(error).toBeInstanceOf(InvalidConfigError);
    expect(error.message).toBe(`reading cluster access secret ${SECRET_ID}: it is not valid JSON`);
    expect(JSON.stringify({ message: error.message, cause: String(error.cause) })).not.toContain(
      'super-secret',
    );
  });

  it('refuses json that is not an object', async () => {
    // Prepare
    const { access, secretsMock } = setUp();
    storing(secretsMock, [VALID]);
    // Act
    const error = await failureOf(access);
    // Assess
    expect(error.message).toBe(
      `reading cluster access secret ${SECRET_ID}: expected a JSON object`,
    );
  });

  it('refuses a binary secret', async () => {
    // Prepare
    const { access, secretsMock } = setUp();
    secretsMock.on(GetSecretValueCommand).resolves({ SecretBinary: new Uint8Array([123, 125]) });
    // Act
    const error = await failureOf(access);
    // Assess
    expect(error.message).toBe(
      `reading cluster access secret ${SECRET_ID}: it has no SecretString; store the JSON as text`,
    );
  });

  it('fails with NotFoundError naming a secret that does not exist', async () => {
    // Prepare
    const { access, secretsMock } = setUp();
    const missing = new ResourceNotFoundException({
      message: "Secrets Manager can't find the specified secret.",
      $metadata,
    });
    secretsMock.on(GetSecretValueCommand).rejects(missing);
    // Act
    const error = await failureOf(access);
    // Assess
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe(
      `reading cluster access secret ${SECRET_ID}: it does not exist (ResourceNotFoundException)`,
    );
    expect(error.cause).toBe(missing);
  });

  it('fails with InvalidConfigError naming secretsmanager:GetSecretValue when access is denied', async () => {
    // Prepare
    const { access, secretsMock } = setUp();
    secretsMock
      .on(GetSecretValueCommand)
      .rejects(secretsError('AccessDeniedException', 'not authorized'));
    // Act
    const error = await failureOf(access);
    // Assess
    expect(error).toBeInstanceOf(InvalidConfigError);
    expect(error.message).toContain(SECRET_ID);
    expect(error.message).toContain('grant secretsmanager:GetSecretValue');
  });

  it('fails with InvalidConfigError naming kms:Decrypt when the key refuses', async () => {
    // Prepare
    const { access, secretsMock } = setUp();
    secretsMock
      .on(GetSecretValueCommand)
      .rejects(new DecryptionFailure({ message: 'Access to KMS is not allowed', $metadata }));
    // Act
    const error = await failureOf(access);
    // Assess
    expect(error).toBeInstanceOf(InvalidConfigError);
    expect(error.message).toContain('kms:Decrypt');
  });

  it('fails with ThrottledError when throttled', async () => {
    // Prepare
    const { access, secretsMock } = setUp();
    secretsMock
      .on(GetSecretValueCommand)
      .rejects(secretsError('ThrottlingException', 'Rate exceeded'));
    // Act
    const error = await failureOf(access);
    // Assess
    expect(error).toBeInstanceOf(ThrottledError);
  });

  it('passes other failures on unchanged', async () => {
    // Prepare
    const { access, secretsMock } = setUp();
    const failure = new InternalServiceError({ message: 'internal failure', $metadata });
    secretsMock.on(GetSecretValueCommand).rejects(failure);
    // Act
    const error = await failureOf(access);
    // Assess
    expect(error).toBe(failure);
  });
});
