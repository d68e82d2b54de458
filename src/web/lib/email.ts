/**
 * The panel's check before sending: something@something.tld, no spaces. The server's schema is the
 * real rule; this only spares a round trip for an obvious slip. No zod: the sign-in route uses it.
 */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const looksLikeEmail = (text: string) => EMAIL.test(text.trim());
