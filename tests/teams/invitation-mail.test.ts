import { randomUUID } from 'node:crypto';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/db/embedded';

// The invitation mail through a real SMTP server (smtp-server from npm), parsed with mailparser. SMTP_URL is set
// before lib/env is first read (it parses the environment once per process).

const received: ParsedMail[] = [];
const waiters: Array<() => void> = [];
let server: SMTPServer;
let port = 0;

function nextMail(count: number): Promise<ParsedMail> {
  return new Promise((resolve) => {
    const check = () => (received.length >= count ? resolve(received[count - 1]!) : waiters.push(check));
    check();
  });
}

beforeAll(async () => {
  port = await freePort();
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          for (const wake of waiters.splice(0)) wake();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
  process.env.MAIL_FROM = 'Invoicing test <invites@example.test>';
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('invitation mail (SMTP_URL set)', () => {
  it('sends the link, which is the working invitation, to the invited email only', async () => {
    const { OPERATOR } = await import('@/lib/audit/audit');
    const { createInvitation, lookupInvitation } = await import('@/lib/teams/invitations');
    const { sendInvitationMail } = await import('@/lib/teams/mail');
    const { createUserWithWorkspace } = await import('@/lib/workspaces/workspaces');
    const { workspace } = await createUserWithWorkspace({
      email: `owner-${randomUUID()}@example.test`,
      password: 'correct horse battery',
      workspaceName: 'Mail test',
    });
    const email = `invitee-${randomUUID()}@example.test`;
    const { invitation, url } = await createInvitation(workspace.id, { email, role: 'developer' }, OPERATOR);
    const before = received.length;
    const outcome = await sendInvitationMail({
      to: email,
      workspaceName: workspace.name,
      role: invitation.role,
      invitedBy: 'owner@example.test',
      url,
      expiresAt: invitation.expiresAt,
    });
    expect(outcome).toBe('sent');

    const mail = await nextMail(before + 1);
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((a) => a.address) : []).toEqual([email]);
    expect(mail.from?.value[0]?.address).toBe('invites@example.test');
    expect(mail.subject).toBe('You are invited to Mail test');
    expect(mail.text).toContain('as Developer');
    const link = /https?:\/\/\S+\/invite\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '');
    expect(link?.[0]).toBe(url);
    const lookup = await lookupInvitation(link![1]!);
    expect(lookup.status).toBe('valid');
    expect(lookup.status === 'valid' && lookup.invitation.email).toBe(email);
  });

  it('a mail server that refuses the connection: "failed", and the invitation is still there', async () => {
    const { OPERATOR } = await import('@/lib/audit/audit');
    const { createInvitation, lookupInvitation } = await import('@/lib/teams/invitations');
    const { sendInvitationMail } = await import('@/lib/teams/mail');
    const { env } = await import('@/lib/env');
    const { createUserWithWorkspace } = await import('@/lib/workspaces/workspaces');
    const { workspace } = await createUserWithWorkspace({
      email: `owner-${randomUUID()}@example.test`,
      password: 'correct horse battery',
    });
    const { invitation, url, token } = await createInvitation(
      workspace.id,
      { email: `x-${randomUUID()}@example.test`, role: 'viewer' },
      OPERATOR,
    );
    const closed = await freePort();
    const settings = env();
    const saved = settings.SMTP_URL;
    settings.SMTP_URL = `smtp://127.0.0.1:${closed}`;
    try {
      expect(
        await sendInvitationMail({
          to: invitation.email,
          workspaceName: workspace.name,
          role: invitation.role,
          invitedBy: 'o',
          url,
          expiresAt: invitation.expiresAt,
        }),
      ).toBe('failed');
    } finally {
      settings.SMTP_URL = saved;
    }
    expect((await lookupInvitation(token)).status).toBe('valid');
  });
});
