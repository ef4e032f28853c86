import type { App, Paged, UserAppPlanInfo, UserListQuery, UserStats, UserStatus } from '../types/entities';
import { ADMIN_FALLBACK } from '../admin/texts';
import { FALLBACK } from '../messages/es';
import { request } from './client';
import { API_PATHS } from './paths';

/** A row of the admin's user list (`GET /user/listar`). */
export interface AdminUser {
  id: number;
  email: string;
  name: string;
  lastName: string;
  phone: string;
  picture: string | null;
  role: number;
  status: UserStatus | string;
  createdAt: string | null;
}

export function listUsers(query: UserListQuery): Promise<Paged<AdminUser>> {
  return request('get', API_PATHS.users.list, {
    searchParams: { page: query.page, limit: query.limit, name: query.name, email: query.email, status: query.status },
    fallback: FALLBACK.listUsers,
  });
}

export function getUserStats(): Promise<UserStats> {
  return request('get', API_PATHS.users.stats, { fallback: FALLBACK.stats });
}

/** Activates the pending users among `userIds`; answers how many were verified. */
export function verifyEmails(userIds: number[]): Promise<{ verified: number; userIds: number[] }> {
  return request('post', API_PATHS.users.verifyEmails, { json: { userIds }, fallback: FALLBACK.verifyByIds });
}

/** Toggles a user between active and suspended (suspension ends the user's sessions). */
export function changeUserStatus(id: number): Promise<{ user: AdminUser }> {
  return request('put', API_PATHS.auth.changeStatus(id), { fallback: FALLBACK.changeStatus });
}

export function getUserAppPlans(idUsuario: number): Promise<UserAppPlanInfo[]> {
  return request('post', API_PATHS.userPlans.userAppPlans, { json: { idUsuario }, fallback: ADMIN_FALLBACK.loadPlans });
}

export interface PlanChange {
  idUsuario: number;
  idApp: number;
  idPlan: number;
  /** ISO date-time: midnight UTC of the chosen day (see `expiryToIso`). */
  fechaVencimiento: string;
}

export function changeUserAppPlan(change: PlanChange): Promise<UserAppPlanInfo> {
  return request('post', API_PATHS.userPlans.changePlan, { json: change, fallback: ADMIN_FALLBACK.savePlan });
}

/** The editable fields of an app (`POST /apps/register`, `PUT /apps/update/{id}`). */
export type AppInput = Partial<Omit<App, 'id'>> & { nombre?: string };

export function createApp(app: AppInput & { nombre: string }): Promise<App> {
  return request('post', API_PATHS.apps.register, { json: app, fallback: FALLBACK.createApp });
}

export function updateApp(id: number, fields: AppInput): Promise<App> {
  return request('put', API_PATHS.apps.update(id), { json: fields, fallback: FALLBACK.updateApp });
}

export interface DashboardFigure {
  value: number;
  previous: number;
  changePercent: number | null;
}

/** `GET /admin/dashboard`: every figure of the admin dashboard, computed by the server. */
export interface DashboardData {
  totalUsers: DashboardFigure;
  activeApps: DashboardFigure;
  activeSubscriptions: DashboardFigure;
  newSubscriptions: DashboardFigure;
  newUsersPerDay: { date: string; count: number }[];
  /** USD charged by billing for paid subscriptions, per month; plans granted by an administrator are not revenue. */
  monthlyRevenue: { month: string; amount: number }[];
  /** 'billing': the revenue is billing's charges; 'none': billing is not configured (every month 0). */
  revenueSource?: 'billing' | 'none';
  planDistribution: { app: string; plan: string; users: number; percentage: number }[];
}

export function getDashboard(): Promise<DashboardData> {
  return request('get', API_PATHS.admin.dashboard, { fallback: ADMIN_FALLBACK.dashboard });
}

export interface AuditEntry {
  id: number;
  actorId: number | null;
  actorEmail: string;
  action: string;
  targetType: 'user' | 'app';
  targetId: number;
  targetLabel: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

export function listAuditLog(page = 1, limit = 20): Promise<Paged<AuditEntry>> {
  return request('get', API_PATHS.admin.auditLog, { searchParams: { page, limit }, fallback: ADMIN_FALLBACK.auditLog });
}
