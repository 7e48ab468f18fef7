/**
 * The signatures of the EKS tokens an API server has checked, remembered per token. The adapter
 * keeps one token for minutes (functions/adapters/eks/kube-config-provider.ts) and sends it with
 * every request; signing its request again each time was the simulator's own cost (0.3 s of its
 * 9 s of CPU in a deployed burst of 300 pods), where kube-apiserver caches a token's
 * authentication for two minutes (its `--authentication-token-webhook-cache-ttl`). Only the
 * signature is remembered: a token's age is still checked on every request, so every verdict is
 * the one signing again would give.
 */
import type { SignatureCheck } from './eks-token-check.ts';

export function rememberedSignatures(): SignatureCheck {
  const verdicts = new Map<string, Promise<boolean>>();
  return (token, matches) => {
    let verdict = verdicts.get(token);
    if (verdict === undefined) {
      verdict = matches();
      verdicts.set(token, verdict);
    }
    return verdict;
  };
}
