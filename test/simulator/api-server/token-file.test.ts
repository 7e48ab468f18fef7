/**
 * kube-apiserver's static token file: CSV records of token, user, uid and quoted groups; a known
 * bearer token authenticates as its user in its groups and `system:authenticated`, an unknown one
 * is refused, and a request with no bearer token is left to the simulation's own.
 */
import { describe, expect, it } from 'vitest';
import {
  parseTokenFile,
  tokenFileAuthenticator,
} from '../../../simulator/api-server/token-file.ts';

const FILE = [
  'n0tsecret,nodesmith,nodesmith-uid,"nodesmith:controller,ops"',
  '',
  'admin-token, kubernetes-admin, admin-uid, system:masters',
  'lonely-token,lonely,lonely-uid',
  ',nobody,nobody-uid,"nodesmith:controller"',
].join('\n');

describe("kube-apiserver's static token file", () => {
  it('reads each record: quoted groups split, leading blanks dropped, a record without a token skipped', () => {
    // Act
    const users = parseTokenFile(FILE);
    // Assess
    expect(Object.fromEntries(users)).toEqual({
      n0tsecret: { name: 'nodesmith', groups: ['nodesmith:controller', 'ops'] },
      'admin-token': { name: 'kubernetes-admin', groups: ['system:masters'] },
      'lonely-token': { name: 'lonely', groups: [] },
    });
  });

  it('refuses a record of fewer than three fields, naming its line', () => {
    // Act
    const reading = () => parseTokenFile('a-token,a-user\n');
    // Assess
    expect(reading).toThrow('token file line 1: a record needs token, user and uid');
  });

  it('authenticates a known bearer token, refuses an unknown one and leaves a request without one', async () => {
    // Prepare
    const authenticate = tokenFileAuthenticator(FILE);
    // Act
    const known = await authenticate('Bearer n0tsecret');
    const unknown = await authenticate('Bearer n0tsecret-either');
    const none = await authenticate(undefined);
    // Assess
    expect(known).toEqual({
      name: 'nodesmith',
      groups: ['nodesmith:controller', 'ops', 'system:authenticated'],
    });
    expect(unknown).toBe('unauthorized');
    expect(none).toBeUndefined();
  });
});
