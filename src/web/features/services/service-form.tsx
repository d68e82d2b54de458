import { useEffect, useMemo } from 'react';
import { CloseButton, FileInput, Group, Image, Paper, Select, Text, TextInput } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import {
  SERVICE_CATEGORIES, SERVICE_ICON_MAX_BYTES, SERVICE_ICON_RULE, SERVICE_ICON_TYPES, serviceFields, type ServiceCategory,
} from '../../../contract/services';
import { messageOf } from '../../components/error-alert';
import { RecordFormModal, type RecordFormProps } from '../../components/form-modal';
import { useContractForm } from '../../components/use-contract-form';
import { useSaveService, type ServiceRow } from './services.api';

const STATUS_OPTIONS = [
  { value: 'true', label: 'Active' },
  { value: 'false', label: 'Inactive' },
];

const acceptable = (file: File) => (SERVICE_ICON_TYPES as readonly string[]).includes(file.type) && file.size <= SERVICE_ICON_MAX_BYTES;

export function ServiceForm({ editing, onClose, onSaved }: RecordFormProps<ServiceRow>) {
  const save = useSaveService();
  const { form, error, setError, submit } = useContractForm({
    initialValues: {
      serviceName: editing?.serviceName ?? '',
      category: (editing?.category ?? 'Recharge') as ServiceCategory,
      status: editing?.status ?? true,
      file: null as File | null,
      iconPath: editing?.serviceIcon ?? '',
    },
    schema: serviceFields,
    // Spec §3: the description is the category.
    toBody: (v) => ({ serviceType: editing?.serviceType || undefined, serviceName: v.serviceName.trim(), category: v.category, description: v.category, status: v.status }),
    rule: (v) => (!editing && !v.file && !v.iconPath.trim() ? 'Please upload an icon for the new service' : null),
    failure: (err) => messageOf(err, 'Failed to save service'),
  });
  const { file, iconPath } = form.values;

  const fileUrl = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => {
    if (fileUrl) URL.revokeObjectURL(fileUrl);
  }, [fileUrl]);
  const preview = fileUrl ?? (iconPath || null);

  const chooseFile = (chosen: File | null) => {
    setError(chosen && !acceptable(chosen) ? SERVICE_ICON_RULE : null);
    form.setFieldValue('file', chosen && acceptable(chosen) ? chosen : null);
  };

  return (
    <RecordFormModal
      noun="Service"
      editing={Boolean(editing)}
      size="lg"
      onClose={onClose}
      submit={submit}
      save={(body) =>
        save.mutateAsync({
          id: editing?.id ?? null,
          serviceType: editing?.serviceType ?? '',
          serviceName: body.serviceName,
          category: body.category,
          status: body.status,
          file,
          iconPath: iconPath.trim(),
          originalIcon: editing?.serviceIcon ?? null,
        })
      }
      onSaved={onSaved}
      error={error}
      busy={save.isPending}
    >
      <TextInput label="Service Name" withAsterisk data-autofocus {...form.getInputProps('serviceName')} />
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
            <CloseButton onClick={() => form.setValues({ file: null, iconPath: '' })} aria-label="Remove icon" />
          </Group>
        </Paper>
      )}
      <TextInput
        label="Icon name/path"
        description="The path of an uploaded icon; a newly chosen file replaces it"
        placeholder="/uploads/service-icons/…"
        disabled={file !== null}
        {...form.getInputProps('iconPath')}
      />
      <Group grow>
        <Select label="Category" data={[...SERVICE_CATEGORIES]} allowDeselect={false} {...form.getInputProps('category')} />
        <Select
          label="Status"
          data={STATUS_OPTIONS}
          value={String(form.values.status)}
          onChange={(v) => form.setFieldValue('status', v === 'true')}
          allowDeselect={false}
        />
      </Group>
    </RecordFormModal>
  );
}
