import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logMailer } from './mailer.ts';
import { smtpMailer, type SmtpMailer } from './smtp-mailer.ts';
import { ADMIN_EMAIL, createTestApp, type TestContext } from './test/harness.ts';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server in this process, on a free port, keeping what it receives. */
async function startSmtpServer() {
  const received: Received[] = [];
  const waiting: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on 127.0.0.1: without STARTTLS nodemailer does not try its self-signed certificate.
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        waiting.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received,
    /** Resolves once `count` mails have arrived. */
    async arrived(count: number) {
      while (received.length < count) await new Promise<void>((wake) => waiting.push(wake));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The mail body with quoted-printable soft line breaks joined, so a long link reads whole. */
const body = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

describe('SMTP mailer against a real SMTP server', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let mailer: SmtpMailer;
  let t: TestContext;
  const PUBLIC_URL = 'https://panel.example.com';

  beforeAll(async () => {
    smtp = await startSmtpServer();
    mailer = smtpMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, from: 'Backoffice <no-reply@example.com>' });
    t = await createTestApp({ mailer, config: { publicUrl: PUBLIC_URL, publicUrlSet: true } });
  });
  afterAll(async () => {
    await t?.close();
    mailer?.close();
    await smtp?.close();
  });

  it('forgot-password: the reset mail arrives at the owner with a working link on PUBLIC_URL', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/api/users/forgot-password', payload: { email: ADMIN_EMAIL }, headers: { host: 'evil.example' },
    });
    expect(res.statusCode).toBe(200);
    await smtp.arrived(1);
    const [mail] = smtp.received;
    expect(mail.from).toBe('no-reply@example.com');
    expect(mail.to).toEqual([ADMIN_EMAIL]);
    expect(mail.raw).toMatch(/^Subject: Reset your Backoffice password/m);
    const link = /https:\/\/panel\.example\.com\/reset-password\?token=[\w%-]+/.exec(body(mail.raw))?.[0];
    expect(link).toBeTruthy();
    expect(mail.raw).not.toContain('evil.example');

    const token = new URL(link!).searchParams.get('token')!;
    const reset = await t.app.inject({ method: 'POST', url: '/api/users/reset-password', payload: { token, newPassword: 'mailed-password-1' } });
    expect(reset.statusCode).toBe(200);
    expect(await t.login(ADMIN_EMAIL, 'mailed-password-1')).toBeTruthy();
  });

  it('an invitation arrives with the invitee\'s name and the accept-invite link', async () => {
    await mailer.sendInvite('new.staff@example.com', 'Neha Rao', `${PUBLIC_URL}/accept-invite?token=abc123`);
    await smtp.arrived(2);
    const mail = smtp.received[1];
    expect(mail.to).toEqual(['new.staff@example.com']);
    expect(mail.raw).toMatch(/^Subject: You are invited to Backoffice/m);
    expect(body(mail.raw)).toContain('Hello Neha Rao,');
    expect(body(mail.raw)).toContain(`${PUBLIC_URL}/accept-invite?token=abc123`);
  });

  it('a mail server that cannot be reached fails the send with a reason that holds no link (the caller logs it)', async () => {
    const dead = smtpMailer({ smtpUrl: 'smtp://127.0.0.1:1', from: 'x@example.com' });
    const error = await dead.sendPasswordReset('a@example.com', `${PUBLIC_URL}/reset-password?token=secret-token`).then(() => null, (e: unknown) => e);
    dead.close();
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toContain('secret-token');
  });
});

describe('log mailer', () => {
  it('prints the link only when told to (a development start), never otherwise', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const log = { info: (fields: Record<string, unknown>) => void lines.push(fields) };
    await logMailer(log).sendPasswordReset('a@example.com', 'http://localhost:8009/reset-password?token=tok-1');
    await logMailer(log).sendInvite('b@example.com', 'B', 'http://localhost:8009/accept-invite?token=tok-2');
    await logMailer(log, { showLinks: true }).sendPasswordReset('c@example.com', 'http://localhost:8009/reset-password?token=tok-3');
    expect(JSON.stringify(lines.slice(0, 2))).not.toMatch(/tok-/);
    expect(lines[2].resetLink).toBe('http://localhost:8009/reset-password?token=tok-3');
  });
});
