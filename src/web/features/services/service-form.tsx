import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Alert, Button, CloseButton, FileInput, Group, Image, Modal, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import {
  SERVICE_CATEGORIES, SERVICE_ICON_MAX_BYTES, SERVICE_ICON_RULE, SERVICE_ICON_TYPES, type ServiceCategory,
} from '../../../contract/services';
import { errorMessage } from '../../lib/api-client';
import { useSaveService, type ServiceRow } from './services.api';

interface ServiceFormProps {
  editing: ServiceRow | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}

const STATUS_OPTIONS = [
  { value: 'true', label: 'Active' },
  { value: 'false', label: 'Inactive' },
];

export function ServiceForm({ editing, onClose, onSaved }: ServiceFormProps) {
  const [serviceName, setServiceName] = useState(editing?.serviceName ?? '');
  const [category, setCategory] = useState<ServiceCategory>(editing?.category ?? 'Recharge');
  const [status, setStatus] = useState(editing?.status ?? true);
  const [file, setFile] = useState<File | null>(null);
  const [iconPath, setIconPath] = useState(editing?.serviceIcon ?? '');
  const [error, setError] = useState<string | null>(null);
  const save = useSaveService();

  const fileUrl = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => {
    if (fileUrl) URL.revokeObjectURL(fileUrl);
  }, [fileUrl]);
  const preview = fileUrl ?? (iconPath || null);

  const chooseFile = (chosen: File | null) => {
    if (chosen && (!(SERVICE_ICON_TYPES as readonly string[]).includes(chosen.type) || chosen.size > SERVICE_ICON_MAX_BYTES)) {
      setError(SERVICE_ICON_RULE);
      setFile(null);
      return;
    }
    setError(null);
    setFile(chosen);
  };

  const removeIcon = () => {
    setFile(null);
    setIconPath('');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    if (!serviceName.trim()) {
      setError('Please fill in the service name');
      return;
    }
    if (!editing && !file && !iconPath.trim()) {
      setError('Please upload an icon for the new service');
      return;
    }
    setError(null);
    save.mutate(
      {
        id: editing?.id ?? null,
        serviceType: editing?.serviceType ?? '',
        serviceName: serviceName.trim(),
        category,
        status,
        file,
        iconPath: iconPath.trim(),
        originalIcon: editing?.serviceIcon ?? null,
      },
      {
        onSuccess: () => onSaved(editing ? 'Service updated successfully' : 'Service created successfully'),
        onError: (err) => setError(errorMessage(err, 'Failed to save service')),
      },
    );
  };

  const title = editing ? 'Edit Service' : 'Add Service';
  return (
    <Modal opened onClose={onClose} title={title} centered size="lg">
      <form onSubmit={submit} noValidate aria-label={title}>
        <Stack gap="md">
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <TextInput label="Service Name" value={serviceName} onChange={(e) => setServiceName(e.currentTarget.value)} withAsterisk data-autofocus />
          <FileInput
            label="Service Icon"
            description={editing ? 'PNG, JPEG or WebP, at most 1 MB' : 'An image upload is required for new services (PNG, JPEG or WebP, at most 1 MB)'}
            placeholder="Choose an image"
            accept={SERVICE_ICON_TYPES.join(',')}
            value={file}
            onChange={chooseFile}
            leftSection={<IconPhoto size={16} aria-hidden />}
            withAsterisk={!editing}
            clearable
          />
          {preview && (
            <Paper withBorder p="xs" radius="md">
              <Group justify="space-between" wrap="nowrap">
                <Group gap="sm" wrap="nowrap">
                  <Image src={preview} alt="Icon preview" w={56} h={56} fit="contain" radius="sm" />
                  <Text size="xs" c="dimmed" lineClamp={1}>
                    {file ? file.name : iconPath}
                  </Text>
                </Group>
                <CloseButton onClick={removeIcon} aria-label="Remove icon" />
              </Group>
            </Paper>
          )}
          <TextInput
            label="Icon name/path"
            description="The path of an uploaded icon; a newly chosen file replaces it"
            placeholder="/uploads/service-icons/…"
            value={iconPath}
            onChange={(e) => setIconPath(e.currentTarget.value)}
            disabled={file !== null}
          />
          <Group grow>
            <Select label="Category" data={[...SERVICE_CATEGORIES]} value={category} onChange={(v) => v && setCategory(v as ServiceCategory)} allowDeselect={false} />
            <Select label="Status" data={STATUS_OPTIONS} value={String(status)} onChange={(v) => setStatus(v === 'true')} allowDeselect={false} />
          </Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {editing ? 'Update' : 'Create'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
