import { describe, expect, it } from 'vitest';
import { APPROVAL_KINDS } from '../../../contract/approvals.ts';
import { MOVEMENTS } from './movements.ts';

describe('the registry of money movements', () => {
  it('has one movement for every approval kind, each under its own kind, with its four-eyes rule said', () => {
    expect(Object.keys(MOVEMENTS).sort()).toEqual(APPROVAL_KINDS.map((k) => k.value).sort());
    for (const [kind, movement] of Object.entries(MOVEMENTS)) {
      expect(movement.kind).toBe(kind);
      expect(movement.fourEyes.rule.length).toBeGreaterThan(0);
    }
  });
});
