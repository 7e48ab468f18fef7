/**
 * kube-apiserver's static token file (`--token-auth-file`; kubernetes/kubernetes,
 * staging/src/k8s.io/apiserver/pkg/authentication/token/tokenfile/tokenfile.go): one CSV record a
 * line, `token,user,uid,"group1,group2"`, at least three fields, a record with an empty token
 * skipped. A bearer token the file holds authenticates as its user, in its groups and in
 * `system:authenticated`, which kube-apiserver adds to every authenticated user; any other bearer
 * token is refused (401), as no authenticator of the cluster takes it. A request with no bearer
 * token is not this authenticator's: it is let in unchecked, as the simulation's own are.
 */
import type { AccessControl } from './access-control.ts';
import type { UserInfo } from './request-attributes.ts';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The fields of one CSV record: commas inside double quotes are text, `""` is a quote. */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted && c === '"' && line[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  // The file is read with TrimLeadingSpace: a field's leading blanks are not part of it.
  return fields.map((f) => f.trimStart());
}

/** The users of the file's tokens, by token. */
export function parseTokenFile(text: string): ReadonlyMap<string, UserInfo> {
  const users = new Map<string, UserInfo>();
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const [token = '', name = '', uid, groups] = csvFields(line);
    if (uid === undefined) {
      throw new Error(`token file line ${index + 1}: a record needs token, user and uid`);
    }
    if (token.trim() === '') continue;
    users.set(token.trim(), { name, groups: groups === undefined ? [] : groups.split(',') });
  }
  return users;
}

export function tokenFileAuthenticator(text: string): AccessControl['authenticate'] {
  const users = parseTokenFile(text);
  return async (authorization) => {
    const token = BEARER.exec(authorization ?? '')?.[1];
    if (token === undefined) return undefined;
    const user = users.get(token);
    if (user === undefined) return 'unauthorized';
    return { ...user, groups: [...user.groups, 'system:authenticated'] };
  };
}
