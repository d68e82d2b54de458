-- Issue 24: the ready roles (contract/permissions.ts READY_ROLES; docs/decisions.md) on an
-- installation that already has its roles. A fresh database gets them from ensureReferenceData
-- (roles is empty here then, so nothing below runs). A role is created only where no role of that
-- name exists (compared by name_key, as the unique constraint does), so an installation that made
-- its own "Operator" keeps it as it is; permission names not in the catalogue are skipped.
WITH ready(name, two_factor, perms) AS (VALUES
    ('Operator', true, ARRAY['dashboard_view', 'users_view', 'users_create', 'users_edit', 'banks_view', 'banks_manage', 'membership_view',
                             'membership_manage', 'reports_view', 'payouts_view', 'payouts_pay', 'wallet_view', 'wallet_manage', 'income_runs',
                             'ranks_view', 'services_view']),
    ('Approver', true, ARRAY['dashboard_view', 'users_view', 'banks_view', 'membership_view', 'reports_view', 'payouts_view', 'wallet_view',
                             'money_approve', 'audit_view']),
    ('Accountant', false, ARRAY['dashboard_view', 'users_view', 'banks_view', 'membership_view', 'reports_view', 'payouts_view', 'wallet_view',
                                'audit_view', 'ranks_view', 'services_view']),
    ('Support', false, ARRAY['dashboard_view', 'users_view', 'users_edit', 'banks_view', 'membership_view', 'wallet_view', 'services_view'])
), created AS (
  INSERT INTO "roles" ("name", "name_key", "status", "two_factor_required")
  SELECT ready.name, role_name_key(ready.name), true, ready.two_factor
    FROM ready
   WHERE EXISTS (SELECT 1 FROM "roles" WHERE "name" = 'Admin')
     AND NOT EXISTS (SELECT 1 FROM "roles" r WHERE r."name_key" = role_name_key(ready.name) OR r."name" = ready.name)
  RETURNING "role_id", "name"
)
INSERT INTO "role_permissions" ("role_id", "role_name", "permission_name", "permission_ids", "status")
SELECT created."role_id", created."name", created."name" || ' permissions',
       coalesce((SELECT array_agg(p."permission_id" ORDER BY p."permission_id") FROM "permissions" p WHERE p."name" = ANY (ready.perms)), '{}'),
       true
  FROM created JOIN ready ON ready.name = created."name";
