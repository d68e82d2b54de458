import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contract/common.ts';
import {
  inviteStaffBody, staffPage, staffParams, staffQuery, staffResponse, staffRoleBody, staffRolesResponse, staffStatusBody,
  updateStaffBody,
} from '../../../contract/staff.ts';
import * as service from './staff.service.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const tags = ['staff'];
const access = 'staff_manage' as const;

/** The Staff screen's API (issue 13): the only place where accounts that sign in are invited, given a role, switched off or signed out. */
export async function staffRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/staff', {
    config: { access },
    schema: { tags, querystring: staffQuery, response: { 200: staffPage, ...errors } },
  }, async (request) => {
    const q = request.query;
    const { data, total } = await service.listStaff(app, q);
    return { success: true as const, data, total, page: q.page, limit: q.limit };
  });

  app.get('/staff/roles', {
    config: { access },
    schema: { tags, response: { 200: staffRolesResponse, ...errors } },
  }, async () => ({ success: true as const, data: await service.assignableRoles(app) }));

  app.post('/staff/invite', {
    config: { access },
    schema: { tags, body: inviteStaffBody, response: { 201: staffResponse, ...errors, 502: errorResponse } },
  }, async (request, reply) => {
    const data = await service.inviteStaff(app, request, request.body);
    return reply.code(201).send({ success: true as const, message: `Invitation sent to ${data.fullName} (${data.email})`, data });
  });

  app.post('/staff/:userId/invite', {
    config: { access },
    schema: { tags, params: staffParams, response: { 200: staffResponse, ...errors, 502: errorResponse } },
  }, async (request) => {
    const data = await service.resendInvite(app, request, request.params.userId);
    return { success: true as const, message: `A new invitation was sent to ${data.email}; earlier links no longer work`, data };
  });

  app.put('/staff/:userId', {
    config: { access },
    schema: { tags, params: staffParams, body: updateStaffBody, response: { 200: staffResponse, ...errors } },
  }, async (request) => {
    const data = await service.updateStaff(app, request, request.params.userId, request.body);
    return { success: true as const, message: 'Staff member updated successfully', data };
  });

  app.put('/staff/:userId/role', {
    config: { access },
    schema: { tags, params: staffParams, body: staffRoleBody, response: { 200: staffResponse, ...errors } },
  }, async (request) => {
    const data = await service.changeRole(app, request, request.params.userId, request.body.roleId);
    return { success: true as const, message: `${data.fullName} now has the role ${data.role}`, data };
  });

  app.put('/staff/:userId/status', {
    config: { access },
    schema: { tags, params: staffParams, body: staffStatusBody, response: { 200: staffResponse, ...errors } },
  }, async (request) => {
    const data = await service.setStatus(app, request, request.params.userId, request.body.status);
    const message = data.status ? `${data.fullName} is active again` : `${data.fullName} is deactivated and signed out everywhere`;
    return { success: true as const, message, data };
  });

  app.post('/staff/:userId/sign-out', {
    config: { access },
    schema: { tags, params: staffParams, response: { 200: staffResponse, ...errors } },
  }, async (request) => {
    const { member, ended } = await service.signOutEverywhere(app, request, request.params.userId);
    const message = `${member.fullName} was signed out of ${ended === 1 ? '1 session' : `${ended} sessions`}`;
    return { success: true as const, message, data: member };
  });
}
