import { Alert, Anchor, Badge, Breadcrumbs, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { memberPath, PATHS } from '../../lib/paths';
import { ApiError, errorMessage } from '../../lib/api-client';
import { formatCount } from '../../lib/format';
import { GenealogyTree } from './genealogy-tree';
import { MemberSummary } from './member-summary';
import { MemberLedger } from './member-ledger';
import { MemberMoneySummary } from './member-money';
import { useAuth } from '../auth/auth-context';
import { levelCountsQuery, memberQuery, uplineQuery } from './network.api';
import { ErrorAlert } from '../../components/error-alert';
import { ApprovalNotice } from '../../components/approval-notice';
import { SuccessBanner, useSuccessBanner } from '../../components/success-banner';
import type { MoneyOutcome } from '../../lib/money-request';
import { ActivateMembershipButton, MembershipCard } from '../income/activation.api';
import { RecoveryOwed } from '../income/runs.api';
import { MemberPanCard } from '../tax/tax.api';
import { MemberBankTransfers } from './member-bank-transfers';
import { MemberSection } from './member-sections';
import { PageTitle } from '../../components/page-title';

/** /users/:userId — one member: profile, the chain of referrers above, and the genealogy below. */
export default function MemberPage() {
  const userId = Number(useParams().userId);
  const valid = Number.isSafeInteger(userId) && userId > 0;
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={PATHS.users} size="sm" className="no-print">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} aria-hidden />
          User Management
        </Group>
      </Anchor>
      {valid ? <Member key={userId} userId={userId} /> : <NotFound />}
    </Stack>
  );
}

function NotFound() {
  return (
    <Alert color="red" variant="light" role="alert" title="User ID not found">
      No member has this user id, or they were deleted.
    </Alert>
  );
}

function Member({ userId }: { userId: number }) {
  const member = useQuery(memberQuery(userId));
  // The money and the ledger are wallet history: shown to who may view it (the server checks it too).
  const canSeeMoney = useAuth().permissions.includes('wallet_view');
  const [success, showSuccess] = useSuccessBanner();
  const [awaitingApproval, setAwaitingApproval] = useState<string | null>(null);
  const activated = ({ message, awaitingApproval: pending }: MoneyOutcome) => {
    setAwaitingApproval(pending ? message : null);
    if (!pending) showSuccess(message);
  };
  if (member.isPending) {
    return (
      <Stack gap="md" aria-busy>
        <Skeleton h={34} w={280} />
        <Skeleton h={150} />
        <Skeleton h={240} />
      </Stack>
    );
  }
  if (member.isError) {
    if (member.error instanceof ApiError && member.error.status === 404) return <NotFound />;
    return (
      <ErrorAlert error={errorMessage(member.error, 'Failed to load this member. Please try again.')} />
    );
  }
  const m = member.data;
  return (
    <>
      <PageTitle title={m.fullName} subtitle={`Member #${m.userId} · their profile, money, upline and downline network`} />
      <MemberSummary member={m} />
      <div className="no-print">
        <MemberPanCard userId={m.userId} onFiled={setAwaitingApproval} />
      </div>
      <SuccessBanner message={success} />
      <ApprovalNotice message={awaitingApproval} onClose={() => setAwaitingApproval(null)} />
      {canSeeMoney && <MemberMoneySummary userId={m.userId} />}
      <div className="no-print">
        <RecoveryOwed userId={m.userId} />
      </div>
      <div className="no-print">
        <MembershipCard userId={m.userId} action={<ActivateMembershipButton userId={m.userId} onDone={activated} />} />
      </div>
      {canSeeMoney && <MemberLedger userId={m.userId} fullName={m.fullName} />}
      {canSeeMoney && (
        <div className="no-print">
          <MemberBankTransfers userId={m.userId} />
        </div>
      )}
      <div className="no-print">
        <Upline userId={m.userId} fullName={m.fullName} />
      </div>
      <Paper withBorder radius="md" p="md" component="section" aria-labelledby="genealogy-title" className="no-print">
        <Stack gap="sm">
          <Title order={2} size="h4" id="genealogy-title">
            Genealogy
          </Title>
          <LevelCounts userId={m.userId} />
          <GenealogyTree root={m} />
        </Stack>
      </Paper>
    </>
  );
}

/** The chain from the top of the network down to this member. */
function Upline({ userId, fullName }: { userId: number; fullName: string }) {
  const upline = useQuery(uplineQuery(userId));
  return (
    <MemberSection id="upline-title" title="Upline" gap="xs">
      {upline.isPending ? (
        <Skeleton h={20} w="60%" />
      ) : upline.isError ? (
        <Text size="sm" c="red" role="alert">
          {errorMessage(upline.error, 'Failed to load the upline. Please try again.')}
        </Text>
      ) : upline.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          Direct — this member joined without a referrer.
        </Text>
      ) : (
        <Breadcrumbs component="nav" aria-label="Upline chain" separatorMargin={6} style={{ flexWrap: 'wrap', rowGap: 4 }}>
          {[...upline.data].reverse().map((u) => (
            <Anchor key={u.userId} component={Link} to={memberPath(u.userId)} size="sm">
              {`${u.fullName} (L${u.level})`}
            </Anchor>
          ))}
          <Text size="sm" fw={600} aria-current="page">
            {fullName}
          </Text>
        </Breadcrumbs>
      )}
    </MemberSection>
  );
}

/** Everyone below the member within 10 levels, counted per level by the server. */
function LevelCounts({ userId }: { userId: number }) {
  const tree = useQuery(levelCountsQuery(userId));
  if (tree.isPending) return <Skeleton h={22} w="70%" />;
  if (tree.isError) return null;
  const { totalMember, levels } = tree.data;
  return (
    <Group gap="xs" aria-label="Members per level below">
      <Text size="sm" fw={500}>{`Network: ${formatCount(totalMember)} ${totalMember === 1 ? 'member' : 'members'}`}</Text>
      {levels.map((l) => (
        <Badge key={l.depth} variant="light" color="indigo">{`Level ${l.depth} below: ${formatCount(l.count)}`}</Badge>
      ))}
    </Group>
  );
}
