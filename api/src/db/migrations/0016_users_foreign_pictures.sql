-- Profile pictures only from the identity providers' avatar hosts (@portal/shared users/picture.ts): the API now refuses
-- any other, and pages draw none. Pictures stored before are dropped here as well, because every reader of the user
-- (partner apps through /auth/user, the users list's JSON) would otherwise still hand them out. This keeps only what
-- that rule keeps (https, a host under googleusercontent.com, no credentials or port); anything else becomes no
-- picture, which the pages draw as the generic icon. A stricter match than the rule can only drop a picture, never
-- keep a forbidden one.
UPDATE users
SET picture = NULL
WHERE picture IS NOT NULL
  AND picture !~* '^https://([a-z0-9-]+\.)+googleusercontent\.com(/[^\s\\]*)?$';
