-- The whole product's data model. Later changes go in new numbered files; never edit an applied one.

CREATE TABLE users (
  id             serial PRIMARY KEY,
  email          text NOT NULL UNIQUE CHECK (email = lower(email)),
  password_hash  text,
  name           text NOT NULL DEFAULT '',
  last_name      text NOT NULL DEFAULT '',
  phone          text NOT NULL DEFAULT '',
  picture        text,
  role           integer NOT NULL DEFAULT 2,
  presentacion   boolean NOT NULL DEFAULT true,
  status         text NOT NULL DEFAULT 'pending_verification'
                 CHECK (status IN ('active', 'pending_verification', 'suspended')),
  token_version  integer NOT NULL DEFAULT 0,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE apps (
  id                serial PRIMARY KEY,
  nombre            text NOT NULL,
  descripcion       text NOT NULL DEFAULT '',
  long_description  text NOT NULL DEFAULT '',
  icon_url          text,
  web_url           text,
  ios_url           text,
  android_url       text,
  is_enabled_web    boolean NOT NULL DEFAULT false,
  is_enabled_movil  boolean NOT NULL DEFAULT false,
  created_at        timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE app_tags (
  id           serial PRIMARY KEY,
  app_id       integer NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  descripcion  text NOT NULL
);
CREATE INDEX app_tags_app_id_idx ON app_tags (app_id);

CREATE TABLE plans (
  id               serial PRIMARY KEY,
  app_id           integer NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  nombre           text NOT NULL,
  descripcion      text NOT NULL DEFAULT '',
  caracteristicas  jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(caracteristicas) = 'array'),
  precio_mensual   numeric(10, 2) NOT NULL DEFAULT 0 CHECK (precio_mensual >= 0),
  precio_anual     numeric(10, 2) NOT NULL DEFAULT 0 CHECK (precio_anual >= 0),
  UNIQUE (app_id, nombre),
  -- Target of user_plans' composite key, so a user's plan always belongs to the app it is filed under.
  UNIQUE (id, app_id)
);

CREATE TABLE user_plans (
  id                 serial PRIMARY KEY,
  user_id            integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  app_id             integer NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
  plan_id            integer NOT NULL,
  fecha_vencimiento  timestamptz,
  UNIQUE (user_id, app_id),
  FOREIGN KEY (plan_id, app_id) REFERENCES plans (id, app_id) ON DELETE CASCADE
);
CREATE INDEX user_plans_plan_id_idx ON user_plans (plan_id);

CREATE TABLE revoked_tokens (
  jti         text PRIMARY KEY,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX revoked_tokens_expires_at_idx ON revoked_tokens (expires_at);
