-- A company directory's groups (SCIM Group resources) and the company's rules that tie a group to seats of an app
-- and/or a role (docs/decisions/0107-directory-groups.md, 0108-directory-seats-waiting.md).

CREATE TABLE company_scim_groups (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id    integer NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  display_name  text NOT NULL,
  external_id   text,
  version       integer NOT NULL DEFAULT 1,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
-- One group of a name per company: what a rule names before the directory sends the group.
CREATE UNIQUE INDEX company_scim_groups_display_name_key ON company_scim_groups (company_id, lower(display_name));
CREATE UNIQUE INDEX company_scim_groups_external_id_key ON company_scim_groups (company_id, external_id)
  WHERE external_id IS NOT NULL;

-- A member of a group: one of the company's SCIM users. `seq` (one sequence for every group) is the order they joined
-- in, which orders who waits for a seat; `joined_at` is when.
CREATE TABLE company_scim_group_members (
  group_id      uuid NOT NULL REFERENCES company_scim_groups (id) ON DELETE CASCADE,
  scim_user_id  uuid NOT NULL REFERENCES company_scim_users (id) ON DELETE CASCADE,
  seq           bigserial NOT NULL,
  joined_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (group_id, scim_user_id)
);
CREATE INDEX company_scim_group_members_user_idx ON company_scim_group_members (scim_user_id);

-- A company's rule: whoever is in the group holds a seat of the app and/or the role. `group_name` is what the
-- administrator typed (the group's displayName); once the directory sends a group of that name, `group_id` follows it
-- across renames.
CREATE TABLE company_group_rules (
  id          serial PRIMARY KEY,
  company_id  integer NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  group_name  text NOT NULL,
  group_id    uuid REFERENCES company_scim_groups (id) ON DELETE SET NULL,
  app_id      integer REFERENCES apps (id) ON DELETE CASCADE,
  role        text CHECK (role IN ('administrador', 'miembro')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  CHECK (app_id IS NOT NULL OR role IS NOT NULL)
);
CREATE INDEX company_group_rules_company_idx ON company_group_rules (company_id, lower(group_name));
CREATE INDEX company_group_rules_group_idx ON company_group_rules (group_id) WHERE group_id IS NOT NULL;

-- Who gave a seat: an administrator by hand ('manual', kept until taken back by hand) or a group rule ('directory',
-- taken back when the person is in no group that gives it).
ALTER TABLE company_seats ADD COLUMN source text NOT NULL DEFAULT 'manual' CHECK (source IN ('manual', 'directory'));
-- Whether the member's role came from a group rule (taken back to 'miembro' when no group gives it any more).
ALTER TABLE company_members ADD COLUMN role_from_directory boolean NOT NULL DEFAULT false;
