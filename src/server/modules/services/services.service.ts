import fs from 'node:fs';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { deriveCategory, type Service, type ServiceCategory } from '../../../contract/services.ts';
import type { Db } from '../../db/client.ts';
import { services } from '../../db/schema/catalogue.ts';
import { audit } from '../../plugins/audit.ts';
import { AppError } from '../../plugins/errors.ts';

type Row = typeof services.$inferSelect;

export function toWire(row: Row): Service {
  return {
    serviceId: row.serviceId,
    serviceType: row.serviceType,
    serviceName: row.serviceName,
    serviceIcon: row.serviceIcon,
    status: row.status,
    category: deriveCategory(row.description, row.category),
    description: row.description,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The catalogue of services is short (tens of rows): returned whole, in id order. */
export async function listServices(db: Db): Promise<Service[]> {
  const rows = await db.select().from(services).orderBy(asc(services.serviceId));
  return rows.map(toWire);
}

export interface ServiceInput {
  serviceType?: string;
  serviceName: string;
  category?: ServiceCategory;
  description?: string;
  status: boolean;
}

function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '') || 'service';
}

/** The description stores the category (spec §3); the category is derived from both. */
function categoryFields(input: ServiceInput, fallback?: Row) {
  const description = input.description ?? input.category ?? fallback?.description ?? '';
  return { description, category: deriveCategory(description, input.category ?? fallback?.category) };
}

/** Inserts the service; when the icon file was written for it, a failure removes the file again. */
export async function createService(
  app: FastifyInstance, request: FastifyRequest, input: ServiceInput, icon: { url: string; file?: string },
): Promise<Service> {
  try {
    return await app.database.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(services)
        .values({
          serviceType: input.serviceType || slug(input.serviceName),
          serviceName: input.serviceName,
          serviceIcon: icon.url,
          status: input.status,
          ...categoryFields(input),
        })
        .returning();
      const data = toWire(row);
      await audit(tx, request, { action: 'create', entity: 'service', entityId: row.serviceId, after: data });
      return data;
    });
  } catch (err) {
    if (icon.file) await fs.promises.rm(icon.file, { force: true });
    throw err;
  }
}

export async function updateService(
  app: FastifyInstance, request: FastifyRequest, serviceId: number, input: ServiceInput,
  icon: { url: string | null; file?: string } | undefined,
): Promise<Service> {
  try {
    return await app.database.db.transaction(async (tx) => {
      const [before] = await tx.select().from(services).where(eq(services.serviceId, serviceId)).for('update');
      if (!before) throw new AppError(404, `Service ${serviceId} not found`);
      const [row] = await tx
        .update(services)
        .set({
          serviceType: input.serviceType || before.serviceType,
          serviceName: input.serviceName,
          status: input.status,
          ...categoryFields(input, before),
          ...(icon ? { serviceIcon: icon.url } : {}),
        })
        .where(eq(services.serviceId, serviceId))
        .returning();
      const data = toWire(row);
      await audit(tx, request, { action: 'update', entity: 'service', entityId: serviceId, before: toWire(before), after: data });
      return data;
    });
  } catch (err) {
    if (icon?.file) await fs.promises.rm(icon.file, { force: true });
    throw err;
  }
}
