// The tax feature's public surface (other features import only this file): its queries, and the
// PAN card the member page (network) mounts.
export * from './tax.queries';
export { MemberPanCard } from './member-pan';
