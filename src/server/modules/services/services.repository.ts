import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { deriveCategory, type Service } from '../../../contract/services.ts';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/rows.ts';
import { nameKey, services } from '../../db/schema/catalogue.ts';

export type ServiceRow = typeof services.$inferSelect;
type ServiceValues = Pick<ServiceRow, 'serviceType' | 'serviceName' | 'status' | 'description' | 'category'> & {
  serviceIcon?: string | null;
};

export const toService = (row: ServiceRow): Service => ({
  serviceId: row.serviceId,
  serviceType: row.serviceType,
  serviceName: row.serviceName,
  serviceIcon: row.serviceIcon,
  status: row.status,
  category: deriveCategory(row.description, row.category),
  description: row.description,
  createdAt: iso(row.createdAt),
});

/** The catalogue of services is short (tens of rows): returned whole, in id order. */
export async function listServices(db: Db): Promise<ServiceRow[]> {
  return db.select().from(services).orderBy(asc(services.serviceId));
}

/** One batch of the CSV export: services after `afterId`, by id (keyset on the primary key). */
export async function servicesBatch(db: Db, afterId: number, limit: number): Promise<ServiceRow[]> {
  return db.select().from(services).where(sql`${services.serviceId} > ${afterId}`).orderBy(asc(services.serviceId)).limit(limit);
}

/** The service, locked until the transaction ends. */
export async function lockService(db: Db, serviceId: number): Promise<ServiceRow | null> {
  const [row] = await db.select().from(services).where(eq(services.serviceId, serviceId)).for('update');
  return row ?? null;
}

export async function insertService(db: Db, values: ServiceValues): Promise<ServiceRow> {
  const [row] = await db.insert(services).values(values).returning();
  return row;
}

export async function updateService(db: Db, serviceId: number, values: ServiceValues): Promise<ServiceRow> {
  const [row] = await db.update(services).set(values).where(eq(services.serviceId, serviceId)).returning();
  return row;
}

/**
 * Another service with this name in this category (Recharge or BBPS), compared as the unique index
 * `services_category_name_uq` compares them (case and spacing ignored); `exceptId` is the service
 * being changed.
 */
export async function findSameNameInCategory(db: Db, category: string, serviceName: string, exceptId?: number): Promise<ServiceRow | null> {
  const [row] = await db
    .select()
    .from(services)
    .where(and(
      eq(services.category, category),
      eq(nameKey(services.serviceName), nameKey(sql`${serviceName}::text`)),
      exceptId === undefined ? undefined : ne(services.serviceId, exceptId),
    ))
    .limit(1);
  return row ?? null;
}

/**
 * Another service with this name and type, compared as the unique index `services_type_name_uq`
 * compares them (case and spacing ignored); `exceptId` is the service being changed.
 */
export async function findSameService(db: Db, serviceType: string, serviceName: string, exceptId?: number): Promise<ServiceRow | null> {
  const [row] = await db
    .select()
    .from(services)
    .where(and(
      eq(nameKey(services.serviceType), nameKey(sql`${serviceType}::text`)),
      eq(nameKey(services.serviceName), nameKey(sql`${serviceName}::text`)),
      exceptId === undefined ? undefined : ne(services.serviceId, exceptId),
    ))
    .limit(1);
  return row ?? null;
}
