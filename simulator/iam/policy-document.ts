/**
 * IAM policy documents as the synthesized template holds them (Version 2012-10-17): a statement
 * or a list of them, each with its effect, `Action` or `NotAction`, `Resource` or `NotResource`,
 * and an optional `Condition` block of operator → key → value or values.
 */

export type OneOrMany<T> = T | readonly T[];

export interface PolicyStatement {
  readonly Sid?: string;
  readonly Effect: 'Allow' | 'Deny';
  readonly Action?: OneOrMany<string>;
  readonly NotAction?: OneOrMany<string>;
  readonly Resource?: OneOrMany<string>;
  readonly NotResource?: OneOrMany<string>;
  readonly Condition?: Readonly<
    Record<string, Readonly<Record<string, OneOrMany<ConditionValue>>>>
  >;
}

/** Policies write condition values as strings, but JSON lets booleans and numbers through. */
export type ConditionValue = string | boolean | number;

export interface PolicyDocument {
  readonly Version?: string;
  readonly Statement: OneOrMany<PolicyStatement>;
}

export function listOf<T>(value: OneOrMany<T> | undefined): readonly T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value as T];
}
