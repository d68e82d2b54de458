import {
  IconBuildingBank,
  IconChartBar,
  IconCoinRupee,
  IconCrown,
  IconGift,
  IconHistory,
  IconKey,
  IconLayoutDashboard,
  IconListCheck,
  IconMedal,
  IconReceipt,
  IconShieldLock,
  IconUsers,
  IconUserShield,
  IconUserStar,
  IconWallet,
  IconChecklist,
  IconAdjustmentsDollar,
  IconPlayerPlay,
  IconTicket,
  IconReceiptTax,
  IconReportMoney,
  type Icon,
} from '@tabler/icons-react';
import { PATHS } from '../../lib/paths';
import type { MainPath } from '../paths';

/**
 * The sidebar's icons, apart from the routes' permissions (../paths.ts): the router needs the
 * permissions in the sign-in route's chunk, the icons only load with the shell.
 */
export const NAV_ICONS: Record<MainPath, Icon> = {
  [PATHS.dashboard]: IconLayoutDashboard,
  [PATHS.users]: IconUsers,
  [PATHS.services]: IconListCheck,
  [PATHS.revenue]: IconChartBar,
  [PATHS.royaltyIncome]: IconCrown,
  [PATHS.rewardIncome]: IconGift,
  [PATHS.dailyPayout]: IconCoinRupee,
  [PATHS.wallet]: IconWallet,
  [PATHS.rank]: IconMedal,
  [PATHS.bank]: IconBuildingBank,
  [PATHS.membership]: IconUserStar,
  [PATHS.approvals]: IconChecklist,
  [PATHS.runs]: IconPlayerPlay,
  [PATHS.plans]: IconTicket,
  [PATHS.incomeSettings]: IconAdjustmentsDollar,
  [PATHS.tdsReport]: IconReceiptTax,
  [PATHS.monthlyStatement]: IconReportMoney,
  [PATHS.permissions]: IconKey,
  [PATHS.roles]: IconShieldLock,
  [PATHS.rolePermissions]: IconReceipt,
  [PATHS.staff]: IconUserShield,
  [PATHS.audit]: IconHistory,
};
