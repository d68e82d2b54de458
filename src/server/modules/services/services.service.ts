import fs from 'node:fs';
import { deriveCategory, type Service, type ServiceCategory } from '../../../contract/services.ts';
import { audit } from '../../lib/audit.ts';
import type { Db } from '../../db/client.ts';
import type { Ctx } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import { iconExists, saveIcon, type IconUpload } from './service-icons.ts';
import * as repo from './services.repository.ts';

export interface ServiceInput {
  serviceType?: string;
  serviceName: string;
  category?: ServiceCategory;
  description?: string;
  status: boolean;
}

/** The icon of a change: a file uploaded with it, or the path of an icon uploaded earlier (null: none). */
export interface IconChoice {
  upload?: IconUpload;
  path?: string | null;
}

/** Where the service's icon now is; `file` when this call wrote it (removed again if the change fails). */
interface StoredIcon {
  url: string | null;
  file?: string;
}

export async function listServices(ctx: Ctx): Promise<Service[]> {
  return (await repo.listServices(ctx.database.db)).map(repo.toService);
}

/** One batch of the services export, by id. */
export async function servicesBatch(ctx: Ctx, afterId: number, limit: number): Promise<Service[]> {
  return (await repo.servicesBatch(ctx.database.db, afterId, limit)).map(repo.toService);
}

function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '') || 'service';
}

/** Spec §3: the description stores the category; the category is derived from both. */
function categoryFields(input: ServiceInput, fallback?: repo.ServiceRow) {
  const description = input.description ?? input.category ?? fallback?.description ?? '';
  return { description, category: deriveCategory(description, input.category ?? fallback?.category) };
}

/** Writes an uploaded icon, or checks that a given path is one of the server's own uploads. */
async function storeIcon(ctx: Ctx, icon: IconChoice): Promise<StoredIcon | undefined> {
  if (icon.upload) return saveIcon(ctx.config.dataDir, icon.upload);
  if (icon.path === undefined) return undefined;
  if (icon.path !== null && !iconExists(ctx.config.dataDir, icon.path)) throw new AppError(400, `The icon ${icon.path} does not exist`);
  return { url: icon.path };
}

/** Runs the change; when its icon file was written for it, a failure removes the file again. */
async function withIcon<T>(stored: StoredIcon | undefined, change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (err) {
    if (stored?.file) await fs.promises.rm(stored.file, { force: true });
    throw err;
  }
}

/** The refusal of a second service with the same name and type, said on the name field. */
function duplicate(serviceType: string, serviceName: string): AppError {
  const message = `A service named ${serviceName} of type ${serviceType} already exists`;
  return new AppError(409, message, { errors: [{ path: 'body.serviceName', field: 'serviceName', message }] });
}

/**
 * The refusal of a second service with the same name in a category (issue 24 item 8: two
 * 'Electricity Bill' rows could not be told apart), said on the name field.
 */
function sameNameInCategory(serviceName: string, category: string): AppError {
  const message = `A ${category} service named ${serviceName} already exists: choose another name`;
  return new AppError(409, message, { errors: [{ path: 'body.serviceName', field: 'serviceName', message }] });
}

/**
 * Refuses a name and type another service has, or a name another service of the category has
 * (case and spacing ignored), on create and on edit, also when two saves race (the unique indexes).
 */
async function uniquely<T>(
  target: { serviceType: string; serviceName: string; category: string },
  db: Db, exceptId: number | undefined, write: () => Promise<T>,
): Promise<T> {
  const { serviceType, serviceName, category } = target;
  const same = await repo.findSameService(db, serviceType, serviceName, exceptId);
  if (same) throw duplicate(same.serviceType, same.serviceName);
  const inCategory = await repo.findSameNameInCategory(db, category, serviceName, exceptId);
  if (inCategory) throw sameNameInCategory(inCategory.serviceName, category);
  try {
    return await write();
  } catch (err) {
    const cause = (err as { cause?: { code?: string; constraint?: string } }).cause ?? (err as { code?: string; constraint?: string });
    if (cause.code === '23505' && cause.constraint === 'services_type_name_uq') throw duplicate(serviceType, serviceName);
    if (cause.code === '23505' && cause.constraint === 'services_category_name_uq') throw sameNameInCategory(serviceName, category);
    throw err;
  }
}

/** A new service needs an icon: an upload or an earlier upload's path. */
export async function createService(ctx: Ctx, input: ServiceInput, icon: IconChoice): Promise<Service> {
  const stored = await storeIcon(ctx, icon);
  if (!stored?.url) throw new AppError(400, 'An icon image is required for a new service');
  return withIcon(stored, () => ctx.database.db.transaction(async (tx) => {
    const serviceType = input.serviceType || slug(input.serviceName);
    const fields = categoryFields(input);
    const row = await uniquely({ serviceType, serviceName: input.serviceName, category: fields.category }, tx, undefined, () => repo.insertService(tx, {
      serviceType,
      serviceName: input.serviceName,
      serviceIcon: stored.url,
      status: input.status,
      ...fields,
    }));
    const data = repo.toService(row);
    await audit(tx, ctx, { action: 'create', entity: 'service', entityId: row.serviceId, after: data });
    return data;
  }));
}

/** Without an icon choice the icon stays; a null path removes it. */
export async function updateService(ctx: Ctx, serviceId: number, input: ServiceInput, icon: IconChoice): Promise<Service> {
  const stored = await storeIcon(ctx, icon);
  return withIcon(stored, () => ctx.database.db.transaction(async (tx) => {
    const before = await repo.lockService(tx, serviceId);
    if (!before) throw new AppError(404, `Service ${serviceId} not found`);
    const serviceType = input.serviceType || before.serviceType;
    const fields = categoryFields(input, before);
    const row = await uniquely({ serviceType, serviceName: input.serviceName, category: fields.category }, tx, serviceId, () => repo.updateService(tx, serviceId, {
      serviceType,
      serviceName: input.serviceName,
      status: input.status,
      ...fields,
      ...(stored ? { serviceIcon: stored.url } : {}),
    }));
    const data = repo.toService(row);
    await audit(tx, ctx, { action: 'update', entity: 'service', entityId: serviceId, before: repo.toService(before), after: data });
    return data;
  }));
}
