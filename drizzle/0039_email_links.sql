-- The ninth session's review: PUT /account/email changed the sign-in email at once, to any address,
-- so a self-registered account could squat a future colleague's address (their invitation refused,
-- the account listed under it given their role). Now a link is mailed to the new address and the
-- email changes when it is followed: the link (purpose 'email') carries the address it applies.
ALTER TABLE "password_resets" ADD COLUMN IF NOT EXISTS "new_email" text;
