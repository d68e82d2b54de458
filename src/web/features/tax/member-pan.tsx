import { useState } from 'react';
import { Button, Group, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconId } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { panBody, type PanBody } from '../../../contract/tax';
import { FormModal } from '../../components/form-modal';
import { StatusBadge } from '../../components/status-badge';
import { useContractForm } from '../../components/use-contract-form';
import { errorMessage } from '../../lib/api-client';
import { useAuth } from '../auth/auth-context';
import { memberPanQuery, useSetPan } from './tax.queries';

/**
 * The member's PAN on their page (issue 25): masked, the change waiting for approval if any, and
 * "Set PAN" / "Change PAN" for an operator with users_edit. A PAN decides the TDS rate (without one,
 * the higher no-PAN rate), so every change waits for a second operator on the Approvals screen.
 */
export function MemberPanCard({ userId, onFiled }: { userId: number; onFiled: (message: string) => void }) {
  const pan = useQuery(memberPanQuery(userId));
  const canEdit = useAuth().permissions.includes('users_edit');
  const [editing, setEditing] = useState(false);
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="pan-title">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={2} size="h4" id="pan-title">
            Tax (PAN)
          </Title>
          {pan.isPending ? (
            <Skeleton h={20} w={200} />
          ) : pan.isError ? (
            <Text size="sm" c="red" role="alert">
              {errorMessage(pan.error, 'Failed to load the PAN. Please try again.')}
            </Text>
          ) : (
            <>
              <Group gap="xs">
                <Text ff="monospace" fw={600}>
                  {pan.data.pan ?? 'No PAN'}
                </Text>
                {pan.data.pan === null && <StatusBadge tone="warning">TDS at the no-PAN rate</StatusBadge>}
              </Group>
              {pan.data.pending && (
                <Text size="sm" c="dimmed">{`${pan.data.pending.pan} awaits approval (request ${pan.data.pending.approvalId})`}</Text>
              )}
            </>
          )}
        </Stack>
        {canEdit && pan.isSuccess && !pan.data.pending && (
          <Button variant="light" leftSection={<IconId size={16} aria-hidden />} onClick={() => setEditing(true)} className="no-print">
            {pan.data.pan === null ? 'Set PAN' : 'Change PAN'}
          </Button>
        )}
      </Group>
      {editing && (
        <PanForm
          userId={userId}
          onClose={() => setEditing(false)}
          onFiled={(message) => {
            setEditing(false);
            onFiled(message);
          }}
        />
      )}
    </Paper>
  );
}

function PanForm({ userId, onClose, onFiled }: { userId: number; onClose: () => void; onFiled: (message: string) => void }) {
  const save = useSetPan(userId);
  const { form, error, submit } = useContractForm({
    initialValues: { pan: '' },
    schema: panBody,
    toBody: (v): PanBody => ({ pan: v.pan.trim().toUpperCase() }),
  });
  return (
    <FormModal
      title="Set PAN"
      onClose={onClose}
      onSubmit={submit(async (body) => onFiled((await save.mutateAsync(body)).message))}
      error={error}
      busy={save.isPending}
      submitLabel="File for approval"
    >
      <Text size="sm" c="dimmed">
        The PAN decides the TDS rate on the member&apos;s payouts. A second operator approves it on the Approvals screen; until then the member keeps
        their current PAN.
      </Text>
      <TextInput
        label="PAN"
        placeholder="ABCDE1234F"
        withAsterisk
        autoComplete="off"
        maxLength={10}
        data-autofocus
        styles={{ input: { textTransform: 'uppercase' } }}
        {...form.getInputProps('pan')}
      />
    </FormModal>
  );
}
