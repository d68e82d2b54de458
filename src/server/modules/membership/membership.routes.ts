import type { FastifyInstance } from 'fastify';
import { membershipApi } from '../../../contract/membership.ts';
import { contextOf } from '../../lib/context.ts';
import { CSV_BATCH, sendCsv } from '../../lib/csv.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import { paiseToRupees } from '../../../contract/common.ts';
import type { MembershipKeyset } from './membership.repository.ts';
import * as service from './membership.service.ts';

export async function membershipRoutes(app: FastifyInstance) {
  registerEndpoints(app, membershipApi, {
    list: async (request) => {
      const q = request.query;
      const { data, total } = await service.listMembers(contextOf(request), q);
      return { success: true as const, data, total, page: q.page, limit: q.limit };
    },
    listCsv: async (request, reply) => {
      const ctx = contextOf(request);
      const rupees = (paise: number) => paiseToRupees(paise).toFixed(2);
      return sendCsv<MembershipKeyset>(reply, 'memberships.csv',
        ['User ID', 'Name', 'Email', 'Phone', 'Status', 'Plan', 'Membership', 'Amount', 'Current Amount', 'Earned', 'Daily Amount', 'Date & Time (IST)'],
        async (cursor) => {
          const { rows, next } = await service.membersBatch(ctx, request.query, cursor, CSV_BATCH);
          return {
            rows: rows.map((m) => [m.userId, m.fullName, m.email, m.phone, m.status ? 'Active' : 'Inactive', m.planName ?? '',
              m.membershipStatus, rupees(m.amountPaise), rupees(m.balancePaise), rupees(m.earnedPaise), rupees(m.dailyPaise), m.istTime]),
            cursor: next,
          };
        });
    },
  });
}
