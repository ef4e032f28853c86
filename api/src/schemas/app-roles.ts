// The shapes of an app's roles and of the roles a person holds (routes/admin/app-roles.ts, routes/companies/app-roles.ts).
import { ROLE_KEY_MAX_LENGTH, ROLE_KEY_PATTERN } from '@portal/contracts/apps/role-key';
import { Type } from 'typebox';
import { OneLineText } from './common.js';

const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

/** A role's key: what apps read in the `roles` claim and attribute. */
export const RoleKey = Type.String({
  minLength: 1,
  maxLength: ROLE_KEY_MAX_LENGTH,
  pattern: ROLE_KEY_PATTERN,
  description: 'Clave del rol: letras minúsculas, dígitos, - y _, hasta 40',
});

export const AppRole = Type.Object({
  clave: RoleKey,
  nombre: Type.String(),
  descripcion: Type.String(),
  porDefecto: Type.Boolean({
    description: 'El rol de quien tiene la app y ningún otro rol de ella (como mucho uno por app)',
  }),
});

export const AppRoleList = Type.Object({ data: Type.Array(AppRole) });

export const CreateAppRoleBody = Type.Object(
  { clave: RoleKey, nombre: OneLineText(100), descripcion: Type.Optional(Type.String({ maxLength: 500 })) },
  { additionalProperties: false },
);

export const UpdateAppRoleBody = Type.Object(
  {
    nombre: Type.Optional(OneLineText(100)),
    descripcion: Type.Optional(Type.String({ maxLength: 500 })),
    porDefecto: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const AppRolesParams = Type.Object({ idApp: Id }, { additionalProperties: false });
export const AppRoleParams = Type.Object({ idApp: Id, clave: RoleKey }, { additionalProperties: false });

export const RolesBody = Type.Object(
  { roles: Type.Array(RoleKey, { maxItems: 100, description: 'Las claves de los roles, todas las que tendrá' }) },
  { additionalProperties: false },
);

export const HeldRoles = Type.Object({ idApp: Id, roles: Type.Array(RoleKey) });

export const MemberAppRolesParams = Type.Object({ id: Id, idUsuario: Id, idApp: Id }, { additionalProperties: false });
export const MemberRolesParams = Type.Object({ id: Id, idUsuario: Id }, { additionalProperties: false });
export const UserAppRolesParams = Type.Object({ id: Id, idApp: Id }, { additionalProperties: false });

export const MemberAppRoles = Type.Object({
  data: Type.Array(
    Type.Object({
      idApp: Id,
      nombreApp: Type.String(),
      roles: Type.Array(RoleKey, { description: 'Los roles que la empresa le dio a mano en esa app' }),
      rolesGrupo: Type.Array(RoleKey, {
        description: 'Los roles que le dan los grupos del directorio (se quitan al salir del grupo, no a mano)',
      }),
      disponibles: Type.Array(AppRole, { description: 'Los roles de la app: los que la empresa puede dar' }),
    }),
  ),
});

export const CompanyAppRoles = Type.Object({
  data: Type.Array(
    Type.Object({
      idApp: Id,
      nombreApp: Type.String(),
      roles: Type.Array(AppRole, { description: 'Los roles de la app, por clave' }),
    }),
    { description: 'Cada app de la que la empresa tiene licencia, por nombre' },
  ),
});
