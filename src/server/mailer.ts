import type { FastifyBaseLogger } from 'fastify';

/** Delivers mail to account holders. The default writes it to the server log. */
export interface Mailer {
  sendPasswordReset(to: string, resetLink: string): Promise<void>;
}

export function logMailer(log: FastifyBaseLogger): Mailer {
  return {
    async sendPasswordReset(to, resetLink) {
      log.info({ to, resetLink }, 'password reset mail (MAILER=log): open the link to choose a new password');
    },
  };
}
