/** Entities of spec §3, with the field names the API fixes. */

export type UserStatus = 'active' | 'pending_verification' | 'suspended';

export const ADMIN_ROLE = 1;

export interface PlanSummary {
  nombre: string;
  descripcion: string | null;
}

export interface UserPlan {
  id: number;
  plan: PlanSummary;
  app?: { id: number; nombre: string };
  fechaVencimiento?: string | null;
}

export interface User {
  id: number;
  email: string;
  name: string;
  lastName: string;
  phone: string | null;
  picture?: string | null;
  role: number;
  presentacion: boolean;
  planesUsuarios: UserPlan[];
  status: UserStatus | string;
  createdAt?: string | null;
}

export interface AppTag {
  descripcion: string;
}

export interface App {
  id: number;
  nombre: string;
  descripcion: string | null;
  longDescription: string | null;
  iconUrl: string | null;
  webUrl: string | null;
  iosUrl: string | null;
  androidUrl: string | null;
  isEnabledWeb: boolean;
  isEnabledMovil: boolean;
  tags: AppTag[];
}

export interface Plan {
  id: number;
  nombre: string;
  caracteristicas: string[];
  precioMensual: number | null;
  precioAnual: number | null;
}

export interface AppWithPlans {
  id: number;
  nombre: string;
  iconUrl: string | null;
  descripcion: string | null;
  longDescription: string | null;
  planes: Plan[];
}

export interface UserAppPlanInfo {
  app: { id: number; nombre: string };
  planActual: { id: number; nombre: string; fechaVencimiento: string | null } | null;
  planesApp: { id: number; nombre: string }[];
}

export interface UserStats {
  totalUsers: number;
  activeUsers: number;
  pendingVerification: number;
  administrators: number;
}

export interface Paged<T> {
  data: T[];
  total: number;
  totalPages: number;
  currentPage: number;
  hasNextPage: boolean;
  count: number;
}

export interface UserListQuery {
  page?: number;
  limit?: number;
  name?: string;
  email?: string;
  status?: UserStatus;
}
