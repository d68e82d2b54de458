// The activation's public surface (other features import only this file): its queries, and the
// activation form and membership card that the member page (network) and the Membership screens
// (membership) mount.
export * from './activation.queries';
export { ActivateMembershipButton, ActivationForm } from './activation-form';
export { MembershipCard } from './membership-card';
