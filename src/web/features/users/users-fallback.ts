import type { User } from '../../../contract/users';

const sample = (userId: number, fullName: string, email: string, role: string, level: number, referrerName: string | null): User => ({
  _id: `sample-${userId}`,
  userId,
  fullName,
  email,
  phone: '—',
  address: null,
  companyName: null,
  role,
  status: true,
  lastLogin: 'Never',
  referredBy: null,
  referrerName,
  rank: null,
  rankId: null,
  level,
  dob: null,
  whatsapp: null,
  image: null,
  state: null,
  referralCode: '—',
  createdAt: '',
});

/** Spec §4: three sample users (roles Admin and User), shown only when loading fails, read-only. */
export const SAMPLE_USERS: User[] = [
  sample(1, 'Sample Admin', 'admin@example.com', 'Admin', 1, null),
  sample(2, 'Sample User One', 'user1@example.com', 'User', 2, 'Sample Admin'),
  sample(3, 'Sample User Two', 'user2@example.com', 'User', 2, 'Sample Admin'),
];
