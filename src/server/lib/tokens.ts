import { createHash, randomBytes } from 'node:crypto';

/**
 * Secret tokens: sessions' bearer tokens and the links of mails (invitations, confirmations, password
 * resets). A token goes to its holder once; the database keeps only its hash.
 */

/** A new token: 32 random bytes, base64url (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A token as the database keeps it: its SHA-256, hex. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
