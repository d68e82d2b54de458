-- Issue 25: the Accountant ready role (contract/permissions.ts READY_ROLES) sees the books. The
-- permission is added to the catalogue here when it is not there yet (bootstrap adds every
-- built-in permission on start, after the migrations), then to the role named Accountant, if the
-- installation has one and its set lacks it. A fresh database gets both from ensureReferenceData.
INSERT INTO "permissions" ("name", "description", "module")
SELECT 'books_view', 'See the books: trial balance, account statements and transfers', 'Reports'
 WHERE EXISTS (SELECT 1 FROM "roles" WHERE "name" = 'Admin')
ON CONFLICT ("name") DO NOTHING;
--> statement-breakpoint
UPDATE "role_permissions" rp
   SET "permission_ids" = (SELECT array_agg(DISTINCT x ORDER BY x) FROM unnest(rp."permission_ids" || p."permission_id") AS x)
  FROM "roles" r, "permissions" p
 WHERE r."role_id" = rp."role_id" AND r."name" = 'Accountant' AND p."name" = 'books_view'
   AND NOT (p."permission_id" = ANY (rp."permission_ids"));
