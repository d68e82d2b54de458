import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { SERVICE_ICON_BASE, SERVICE_ICON_FILE, SERVICE_ICON_RULE } from '../../../contract/services.ts';
import { AppError } from '../../lib/errors.ts';

const CONTENT_TYPES = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' } as const;
type IconExt = keyof typeof CONTENT_TYPES;
/** An uploaded icon, read whole and checked by content. */
export interface IconUpload {
  buffer: Buffer;
  ext: IconExt;
}

/** The type by content (magic bytes), never by name or declared type: SVG and renamed files fail. */
export function detectImage(buf: Buffer): IconExt | null {
  if (buf.length >= 8 && buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpg';
  if (buf.length >= 12 && buf.toString('latin1', 0, 4) === 'RIFF' && buf.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

/** Where uploads live: under the server's data directory. */
export function iconDir(dataDir: string): string {
  return path.join(dataDir, 'uploads', 'service-icons');
}

/** Reads an uploaded part whole (the multipart limit stops it at 1 MB) and checks its content. */
export async function readIcon(part: MultipartFile): Promise<IconUpload> {
  let buffer: Buffer;
  try {
    buffer = await part.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, SERVICE_ICON_RULE);
    throw err;
  }
  const ext = detectImage(buffer);
  if (!ext) throw new AppError(400, SERVICE_ICON_RULE);
  return { buffer, ext };
}

/** Writes the icon under a random name and returns the public path the panel's <img> loads. */
export async function saveIcon(dataDir: string, icon: IconUpload): Promise<{ url: string; file: string }> {
  const dir = iconDir(dataDir);
  await fs.promises.mkdir(dir, { recursive: true });
  const name = `${randomBytes(16).toString('hex')}.${icon.ext}`;
  const file = path.join(dir, name);
  await fs.promises.writeFile(file, icon.buffer, { flag: 'wx' });
  return { url: `${SERVICE_ICON_BASE}${name}`, file };
}

export function iconExists(dataDir: string, url: string): boolean {
  const name = url.slice(SERVICE_ICON_BASE.length);
  return SERVICE_ICON_FILE.test(name) && fs.existsSync(path.join(iconDir(dataDir), name));
}

/**
 * GET /uploads/service-icons/:file, outside /api: an <img> carries no bearer token. Only names
 * of the server's own random form are accepted, so no path can leave the directory.
 */
export async function serviceIconRoutes(app: FastifyInstance) {
  app.get<{ Params: { file: string } }>(`${SERVICE_ICON_BASE}:file`, async (request, reply) => {
    const { file } = request.params;
    if (!SERVICE_ICON_FILE.test(file)) return reply.code(404).send({ success: false, message: 'Icon not found' });
    const full = path.join(iconDir(app.config.dataDir), file);
    let stream: fs.ReadStream;
    try {
      await fs.promises.access(full);
      stream = fs.createReadStream(full);
    } catch {
      return reply.code(404).send({ success: false, message: 'Icon not found' });
    }
    const ext = path.extname(file).slice(1) as IconExt;
    return reply
      .type(CONTENT_TYPES[ext])
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('content-security-policy', "default-src 'none'")
      .send(stream);
  });
}
