// POST /Users: a person provisioned by the directory, their account taken by email or made, joins the company.
import { eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../../db/client.js';
import { companyDomains, companyMembers, companyScimUsers, users } from '../../../db/schema.js';
import { auditActorJson } from '../../audit/log.js';
import { activateUser } from '../../registration/activation.js';
import { checkDomain, emailOf, inTransaction, withUniqueness } from './checks.js';
import { shown } from './errors.js';
import { scimActor } from './membership.js';
import { draftFromResource, type UserDraft } from './patch.js';
import { type Outcome, type ResourceRow, type ScimScope, type UserResource, userResource } from './users.js';

interface ProvisionRow {
  id: string;
  company_id: number;
  user_id: number;
  user_name: string;
  external_id: string | null;
  given_name: string;
  family_name: string;
  display_name: string;
  active: boolean;
  version: number;
  created_at: Date | string;
  updated_at: Date | string;
  account_status: string;
  account_created: boolean;
}

/**
 * The whole of a POST in one statement (a directory's first sync makes thousands): the domain proved, the account
 * taken by email or created active with no password, the resource, the membership and the audit entry. No row when
 * the domain is not proved (or an account of that email was committed by another request after this statement's
 * snapshot: the caller tells which). A taken userName or account breaks a unique index: the caller's 409.
 */
function provisionStatement(
  companyId: number,
  domain: string,
  email: string,
  draft: UserDraft,
  { pendingAccounts }: { pendingAccounts: boolean },
) {
  const details = sql`jsonb_build_object('fuente', 'scim', 'userName', resource.user_name, 'userId', account.id,
    'email', ${email}::text, 'active', resource.active, 'cuentaNueva', account.created)
    || case when resource.active then jsonb_build_object('unido', exists (select 1 from joined)) else '{}'::jsonb end`;
  return sql`
    with proved as (
      select 1 from ${companyDomains}
      where company_id = ${companyId} and domain = ${domain} and verified_at is not null
    ),
    inserted as (
      insert into ${users} (email, name, last_name, status)
      select ${email}, ${draft.givenName}, ${draft.familyName}, 'active' from proved
      on conflict (email) do nothing
      returning id, status, true as created
    ),
    account as (
      select id, status, created from inserted
      union all
      select id, status, false from ${users}
      where email = ${email} and exists (select 1 from proved) and not exists (select 1 from inserted)
        ${pendingAccounts ? sql`` : sql`and status <> 'pending_verification'`}
    ),
    resource as (
      insert into ${companyScimUsers}
        (company_id, user_id, user_name, external_id, given_name, family_name, display_name, active)
      select ${companyId}, account.id, ${draft.userName}, ${draft.externalId}, ${draft.givenName}, ${draft.familyName},
        ${draft.displayName}, ${draft.active} from account
      returning *
    ),
    joined as (
      insert into ${companyMembers} (company_id, user_id, role, status)
      select company_id, user_id, 'miembro', 'active' from resource where resource.active
      on conflict (company_id, user_id) do update set status = 'active'
        where ${companyMembers}.status = 'pending_approval'
      returning user_id
    ),
    audited as (
      select audit_write(${auditActorJson(scimActor)}::jsonb, jsonb_build_array(jsonb_build_object(
        'action', 'company.member_provision', 'targetType', 'company', 'targetId', ${companyId}::int,
        'companyId', ${companyId}::int, 'details', ${details}))) as n
      from resource, account
    )
    select resource.*, account.status as account_status, account.created as account_created
    from resource, account, (select count(*) from audited) as audit_written`;
}

/**
 * POST /Users: the person's account (theirs by email, or a new one) joins the company; inactive: a resource only.
 * Most of a sync's POSTs are one statement on its own (it is atomic by itself: no BEGIN/COMMIT round trips); what
 * needs more (a domain to check, an account made meanwhile, an account waiting for its email to be verified) runs in
 * a transaction.
 */
export async function createUser(db: Db, scope: ScimScope, body: unknown): Promise<Outcome<UserResource>> {
  const draft = draftFromResource(body);
  const { companyId } = scope;
  const { email, domain } = emailOf(draft.userName);
  const [direct] = await withUniqueness(draft, () =>
    rowsOf<ProvisionRow>(db, provisionStatement(companyId, domain, email, draft, { pendingAccounts: false })),
  );
  const row =
    direct ??
    (await inTransaction(db, draft, async (tx) => {
      const statement = () => provisionStatement(companyId, domain, email, draft, { pendingAccounts: true });
      let [created] = await rowsOf<ProvisionRow>(tx, statement());
      if (!created) {
        await checkDomain(tx, companyId, draft.userName);
        // Proved: the account was made meanwhile by another request; this statement sees it.
        [created] = await rowsOf<ProvisionRow>(tx, statement());
        if (!created) throw new Error('resource not created');
      }
      if (created.account_status === 'pending_verification') {
        // The company's directory vouches for the address, as a provider does: activated with no password, every
        // pending registration dropped (whoever typed them never proved the mailbox), the directory's name instead.
        await activateUser(tx, created.user_id);
        await tx
          .update(users)
          .set({ name: draft.givenName, lastName: draft.familyName, phone: '' })
          .where(eq(users.id, created.user_id));
      }
      return created;
    }));
  const resource: ResourceRow = {
    id: row.id,
    companyId: row.company_id,
    userId: row.user_id,
    userName: row.user_name,
    externalId: row.external_id,
    givenName: row.given_name,
    familyName: row.family_name,
    displayName: row.display_name,
    active: row.active,
    version: row.version,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
  const detail = draft.active
    ? `Alta de ${shown(row.user_name)}: miembro de la empresa`
    : `Alta de ${shown(row.user_name)} inactiva: no entra en la empresa`;
  return {
    result: userResource(resource, scope),
    detail,
    userName: row.user_name,
    noSessionChange: row.account_created,
  };
}
