import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { bankTransfersApi, RESPONSE_FILE_MAX_BYTES, WEBHOOK_SIGNATURE_HEADER } from '../../../contract/bank-transfers.ts';
import { contextOf } from '../../lib/context.ts';
import { keysetBatches, sendCsv } from '../../lib/csv.ts';
import { AppError } from '../../lib/errors.ts';
import { idempotent } from '../../lib/idempotency.ts';
import { registerEndpoints } from '../../lib/routes.ts';
import { moneyContext } from '../../lib/money/movement.ts';
import * as answers from './bank-answers.service.ts';
import * as service from './bank-transfers.service.ts';

const ok = true as const;

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body as received (this feature's routes only): the webhook's signature is over these bytes. */
    rawBody?: string;
  }
}

/** The response file of a multipart upload (field `file`), as text. */
async function readUpload(request: FastifyRequest): Promise<string> {
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') return (await part.toBuffer()).toString('utf8');
    }
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode) throw err;
    throw new AppError(400, 'The upload is not a complete multipart/form-data body');
  }
  throw new AppError(400, 'Choose the bank\u2019s response file');
}

export async function bankTransfersRoutes(app: FastifyInstance) {
  await app.register(multipart, { limits: { fileSize: RESPONSE_FILE_MAX_BYTES, files: 1, fields: 4, parts: 5 } });
  // JSON bodies are kept as received too: the webhook's HMAC is over the raw bytes.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    request.rawBody = text;
    if (text === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new AppError(400, 'The body is not valid JSON'), undefined);
    }
  });
  // The webhook's signature is checked before its body is even validated.
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.url?.endsWith(bankTransfersApi.webhook.path) && request.method === 'POST') {
      const signature = request.headers[WEBHOOK_SIGNATURE_HEADER];
      answers.verifyWebhook(request.server.config, request.rawBody ?? '', Array.isArray(signature) ? signature[0] : signature);
    }
  });

  registerEndpoints(app, bankTransfersApi, {
    gatherable: async (request) => ({ success: ok, data: await service.gatherable(contextOf(request)) }),
    gather: async (request) => {
      const data = await service.gather(contextOf(request), request.body?.template);
      return { success: ok, message: `Bank batch ${data.id} gathered: ${data.lines} ${data.lines === 1 ? 'transfer' : 'transfers'}`, data };
    },
    batches: async (request) => {
      const { page, limit } = request.query;
      return { success: ok, ...(await service.listBatches(contextOf(request), request.query)), page, limit };
    },
    batch: async (request) => ({ success: ok, data: await service.getBatch(contextOf(request), request.params.id) }),
    lines: async (request) => {
      const { page, limit } = request.query;
      return { success: ok, ...(await service.listLines(contextOf(request), request.params.id, request.query)), page, limit };
    },
    release: async (request, reply) => {
      const ctx = contextOf(request);
      return idempotent(ctx, request, reply, (tx) => service.requestRelease(tx, moneyContext(ctx), request.params.id));
    },
    cancel: async (request) => {
      const data = await service.cancelBatch(contextOf(request), request.params.id);
      return { success: ok, message: `Bank batch ${data.id} cancelled: its ${data.lines === 1 ? 'transfer is' : 'transfers are'} gathered again by the next batch`, data };
    },
    file: async (request, reply) => {
      const ctx = contextOf(request);
      const batch = await service.fileBatch(ctx, request.params.id);
      const layout = service.fileLayout(request.query.template ?? batch.template, batch.id);
      return sendCsv<number>(reply, layout.filename, layout.header, keysetBatches({
        read: (afterId, limit) => service.fileLines(ctx, batch.id, afterId ?? 0, limit),
        cells: layout.row,
        key: (line) => line.id,
      }));
    },
    importResponse: async (request) => {
      const text = request.isMultipart() ? await readUpload(request) : request.body?.text;
      if (!text) throw new AppError(400, 'Choose the bank\u2019s response file');
      const data = await answers.importResponse(contextOf(request), text);
      return { success: ok, message: answers.summaryMessage(data), data };
    },
    inTransit: async (request) => {
      const { page, limit } = request.query;
      return { success: ok, ...(await service.inTransit(contextOf(request), request.query)), page, limit };
    },
    memberLines: async (request) => {
      const { page, limit } = request.query;
      return { success: ok, ...(await service.memberLines(contextOf(request), request.params.userId, request.query)), page, limit };
    },
    releaseLines: async (request) => {
      const { page, limit } = request.query;
      return { success: ok, ...(await service.releaseLines(contextOf(request), request.params.id, request.query)), page, limit };
    },
    returnLines: async (request) => {
      const { page, limit } = request.query;
      return { success: ok, ...(await service.returnLines(contextOf(request), request.params.id, request.query)), page, limit };
    },
    webhook: async (request) => {
      const signature = request.headers[WEBHOOK_SIGNATURE_HEADER];
      const data = await answers.receiveWebhook(request.server.database, request.server.config, request.rawBody ?? '',
        Array.isArray(signature) ? signature[0] : signature);
      return { success: ok, data };
    },
  });
}
