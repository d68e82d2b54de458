import { useState, type ChangeEvent, type FormEvent } from 'react';
import { Anchor, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { registerBody } from '../../../contract/auth';
import { ErrorAlert } from '../../components/error-alert';
import { errorMessage } from '../../lib/api-client';
import { saveSession } from '../../lib/session';
import { serverFieldErrors, type FieldErrors } from '../../lib/api-client';
import { meQuery, useRegister } from './auth.api';
import { AuthLayout } from './auth-layout';
import { schemaErrors } from './form-errors';
import { SubmitButton } from './form-parts';

const EMPTY = { name: '', fullName: '', email: '', phone: '', address: '', password: '', confirmPassword: '' };
type Field = keyof typeof EMPTY;

export default function RegisterPage() {
  const [values, setValues] = useState(EMPTY);
  const [formError, setFormError] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const register = useRegister();
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const field = (name: Field) => ({
    value: values[name],
    error: errors[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [name]: value }));
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (register.isPending) return;
    setErrors({});
    if (Object.values(values).some((value) => value.trim() === '')) {
      setFormError('Please fill in all fields');
      return;
    }
    if (values.password !== values.confirmPassword) {
      setFormError('Passwords do not match');
      return;
    }
    const { confirmPassword: _confirm, ...body } = values;
    const parsed = registerBody.safeParse(body);
    if (!parsed.success) {
      setFormError(null);
      setErrors(schemaErrors(parsed.error));
      return;
    }
    setFormError(null);
    register.mutate(parsed.data, {
      onSuccess: ({ token, user }) => {
        saveSession(token, user);
        queryClient.setQueryData(meQuery(token).queryKey, user);
        navigate('/', { replace: true });
      },
      onError: (error) => {
        setFormError(errorMessage(error, 'Registration failed. Please try again.'));
        setErrors(serverFieldErrors(error));
      },
    });
  };

  return (
    <AuthLayout title="Create your account" width={600}>
      <form onSubmit={submit} noValidate aria-label="Create your account">
        <Stack gap="md">
          <ErrorAlert error={formError} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Username" autoComplete="username" withAsterisk {...field('name')} />
            <TextInput label="Full name" autoComplete="name" withAsterisk {...field('fullName')} />
            <TextInput label="Email address" type="email" autoComplete="email" withAsterisk {...field('email')} />
            <TextInput label="Phone number" type="tel" autoComplete="tel" withAsterisk {...field('phone')} />
          </SimpleGrid>
          <TextInput label="Address" autoComplete="street-address" withAsterisk {...field('address')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <PasswordInput label="Password" autoComplete="new-password" withAsterisk {...field('password')} />
            <PasswordInput label="Confirm password" autoComplete="new-password" withAsterisk {...field('confirmPassword')} />
          </SimpleGrid>
          <SubmitButton pending={register.isPending} label="Sign up" busyLabel="Signing up..." icon={<IconUserPlus size={18} aria-hidden />} />
          <Text size="sm" c="dimmed" ta="center">
            Already have an account?{' '}
            <Anchor component={Link} to="/signin" size="sm" underline="always">
              Sign in
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
