import type { FastifyInstance, FastifyRequest } from 'fastify';
import { staffApi } from '../../../contract/staff.ts';
import { contextOf } from '../../lib/context.ts';
import { sendCsv } from '../../lib/csv.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import * as service from './staff.service.ts';

/** An invitation that could not be mailed answers 502; why it failed goes to the request's log. */
async function loggingMailFailure<T>(request: FastifyRequest, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof service.InviteNotSent) request.log.error({ err: err.reason }, 'invitation mail failed');
    throw err;
  }
}

const STAFF_CSV_PAGE = 500;

export async function staffRoutes(app: FastifyInstance) {
  registerEndpoints(app, staffApi, {
    list: async (request) => {
      const q = request.query;
      const { data, total } = await service.listStaff(contextOf(request), q);
      return { success: true as const, data, total, page: q.page, limit: q.limit };
    },
    csv: async (request, reply) => {
      // Staff are the back-office's accounts (tens, not millions): the screen's own query, page by page.
      const ctx = contextOf(request);
      return sendCsv<number>(
        reply,
        'staff.csv',
        ['User ID', 'Full Name', 'Email', 'Role', 'Status', 'Two-factor', 'Last Sign-in', 'Invitation'],
        async (page) => {
          const current = page ?? 1;
          const { data } = await service.listStaff(ctx, { ...request.query, page: current, limit: STAFF_CSV_PAGE });
          return {
            rows: data.map((s) => [
              s.userId, s.fullName, s.email, s.role, s.status ? 'Active' : 'Inactive', s.twoFactorEnabled ? 'On' : 'Off',
              s.lastSignIn ?? 'Never', s.invitePending ? 'Pending' : s.passwordSet ? 'Accepted' : 'Expired',
            ]),
            cursor: data.length === STAFF_CSV_PAGE ? current + 1 : null,
          };
        },
      );
    },
    roles: async (request) => ({ success: true as const, data: await service.assignableRoles(contextOf(request)) }),
    invite: async (request) => {
      const data = await loggingMailFailure(request, service.inviteStaff(contextOf(request), request.body));
      return { success: true as const, message: `Invitation sent to ${data.fullName} (${data.email})`, data };
    },
    resendInvite: async (request) => {
      const data = await loggingMailFailure(request, service.resendInvite(contextOf(request), request.params.userId));
      return { success: true as const, message: `A new invitation was sent to ${data.email}; earlier links no longer work`, data };
    },
    update: async (request) => {
      const data = await service.updateStaff(contextOf(request), request.params.userId, request.body);
      return { success: true as const, message: 'Staff member updated successfully', data };
    },
    changeRole: async (request) => {
      const data = await service.changeRole(contextOf(request), request.params.userId, request.body.roleId);
      return { success: true as const, message: `${data.fullName} now has the role ${data.role}`, data };
    },
    setStatus: async (request) => {
      const data = await service.setStatus(contextOf(request), request.params.userId, request.body.status);
      const message = data.status ? `${data.fullName} is active again` : `${data.fullName} is deactivated and signed out everywhere`;
      return { success: true as const, message, data };
    },
    signOut: async (request) => {
      const { member, ended } = await service.signOutEverywhere(contextOf(request), request.params.userId);
      const message = `${member.fullName} was signed out of ${ended === 1 ? '1 session' : `${ended} sessions`}`;
      return { success: true as const, message, data: member };
    },
  });
}
