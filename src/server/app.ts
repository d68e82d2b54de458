import Fastify, { type FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { contractSerializerCompiler } from './lib/serializer.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { logMailer, type Mailer } from './mailer.ts';
import { CAPTURED_QUERIES_HEADER, encodeCapturedQueries, installQueryTiming, queryTiming, type QueryTiming } from './db/query-timing.ts';
import { registerAuth, requestLogSerializers } from './plugins/auth.ts';
import { frameworkErrors, registerErrorHandling } from './plugins/errors.ts';
import { registerInputGuard } from './plugins/input-guard.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { registerBoundedWork } from './plugins/bounded-work.ts';
import { registerWeb } from './plugins/web.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { systemRoutes } from './modules/system/system.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { networkRoutes } from './modules/network/network.routes.ts';
import { ranksRoutes } from './modules/ranks/ranks.routes.ts';
import { banksRoutes } from './modules/banks/banks.routes.ts';
import { taxRoutes } from './modules/tax/tax.routes.ts';
import { membershipRoutes } from './modules/membership/membership.routes.ts';
import { permissionsRoutes } from './modules/permissions/permissions.routes.ts';
import { rolesRoutes } from './modules/roles/roles.routes.ts';
import { rolePermissionsRoutes } from './modules/role-permissions/role-permissions.routes.ts';
import { servicesRoutes } from './modules/services/services.routes.ts';
import { serviceIconRoutes } from './modules/services/service-icons.ts';
import { walletRoutes } from './modules/wallet/wallet.routes.ts';
import { payoutsRoutes } from './modules/payouts/payouts.routes.ts';
import { reportsRoutes } from './modules/reports/reports.routes.ts';
import { staffRoutes } from './modules/staff/staff.routes.ts';
import { approvalsRoutes } from './modules/approvals/approvals.routes.ts';
import { plansRoutes } from './modules/income/plans.routes.ts';
import { activationRoutes } from './modules/income/activation.routes.ts';
import { runsRoutes } from './modules/income/runs/runs.routes.ts';
import { bankTransfersRoutes } from './modules/bank-transfers/bank-transfers.routes.ts';
import { booksRoutes } from './modules/books/books.routes.ts';

export interface AppDeps {
  config: Config;
  database: Database;
  mailer?: Mailer;
  logger?: boolean | object;
}

export type App = FastifyInstance;

/** A hop count becomes "trust the nearest n proxies"; addresses and booleans pass through. */
function trustProxyOption(value: boolean | number | string) {
  return typeof value === 'number' ? (_address: string, hop: number) => hop < value : value;
}

/**
 * Runs each request in its own timing context and reports it as `Server-Timing` (SERVER_TIMING);
 * with CAPTURE_QUERIES (never in production), a request asking with `x-capture-queries: 1` gets
 * the statements it ran back in `x-captured-queries` (the benchmark's pgbench replay).
 */
function registerServerTiming(app: FastifyInstance, o: { timing: boolean; explain: boolean; capture: boolean }) {
  installQueryTiming();
  app.addHook('onRequest', (request, _reply, done) => {
    const wanted = o.explain && request.headers['x-explain-queries'] === '1';
    const capture = o.capture && request.headers['x-capture-queries'] === '1';
    queryTiming.run({ queries: 0, ms: 0, execMs: 0, explain: wanted, ...(capture ? { captured: [] } : {}) } satisfies QueryTiming, done);
  });
  app.addHook('onSend', async (_request, reply) => {
    const t = queryTiming.getStore();
    if (!t) return;
    if (t.captured) reply.header(CAPTURED_QUERIES_HEADER, encodeCapturedQueries(t.captured));
    if (!o.timing) return;
    const parts = [`db;dur=${t.ms.toFixed(2)};desc="${t.queries} queries"`];
    if (t.explain) parts.push(`dbexec;dur=${t.execMs.toFixed(2)}`);
    reply.header('server-timing', parts.join(', '));
  });
}

/** Builds the whole server: infrastructure first, then every module, registered explicitly. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // Reset and invite links carry their token in the page address: request log lines never show it.
    logger: deps.logger ? { ...(deps.logger === true ? {} : deps.logger), serializers: requestLogSerializers } : false,
    bodyLimit: 1024 * 1024,
    trustProxy: trustProxyOption(deps.config.trustProxy),
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // Answers are written from the contract's schemas, not validated again (lib/serializer.ts).
  app.setSerializerCompiler(contractSerializerCompiler);
  app.decorate('config', deps.config);
  app.decorate('database', deps.database);
  app.decorate('mailer', deps.mailer ?? logMailer(app.log));

  registerErrorHandling(app);
  const captureQueries = deps.config.captureQueries && !deps.config.production;
  if (deps.config.serverTiming || captureQueries) {
    registerServerTiming(app, { timing: deps.config.serverTiming, explain: deps.config.serverTiming && deps.config.explainQueries, capture: captureQueries });
  }
  registerSecurityHeaders(app);
  // Closed by default: the panel is served from the same origin. CORS_ORIGINS opens it to a list.
  if (deps.config.corsOrigins.length > 0) {
    await app.register(cors, { origin: deps.config.corsOrigins, allowedHeaders: ['authorization', 'content-type', 'idempotency-key'] });
  }
  await registerAuth(app);
  registerInputGuard(app);
  registerBoundedWork(app);
  registerMetrics(app);
  await registerOpenApi(app);

  await app.register(systemRoutes, { prefix: '/api' });
  await app.register(authRoutes, { prefix: '/api' });
  await app.register(dashboardRoutes, { prefix: '/api' });
  await app.register(auditRoutes, { prefix: '/api' });
  await app.register(usersRoutes, { prefix: '/api' });
  await app.register(networkRoutes, { prefix: '/api' });
  await app.register(ranksRoutes, { prefix: '/api' });
  await app.register(banksRoutes, { prefix: '/api' });
  await app.register(taxRoutes, { prefix: '/api' });
  await app.register(membershipRoutes, { prefix: '/api' });
  await app.register(permissionsRoutes, { prefix: '/api' });
  await app.register(rolesRoutes, { prefix: '/api' });
  await app.register(rolePermissionsRoutes, { prefix: '/api' });
  await app.register(servicesRoutes, { prefix: '/api' });
  await app.register(serviceIconRoutes);
  await app.register(walletRoutes, { prefix: '/api' });
  await app.register(payoutsRoutes, { prefix: '/api' });
  await app.register(reportsRoutes, { prefix: '/api' });
  await app.register(staffRoutes, { prefix: '/api' });
  await app.register(approvalsRoutes, { prefix: '/api' });
  await app.register(plansRoutes, { prefix: '/api' });
  await app.register(activationRoutes, { prefix: '/api' });
  await app.register(runsRoutes, { prefix: '/api' });
  await app.register(bankTransfersRoutes, { prefix: '/api' });
  await app.register(booksRoutes, { prefix: '/api' });

  await registerWeb(app);
  return app;
}
