import { useState, type ChangeEvent, type FormEvent } from 'react';
import { Alert, Anchor, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconMailCheck, IconUserPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { registerBody } from '../../../contract/auth';
import { ErrorAlert } from '../../components/error-alert';
import { errorMessage } from '../../lib/api-client';
import { serverFieldErrors, type FieldErrors } from '../../lib/api-client';
import { useRegister } from './auth.api';
import { AuthLayout } from './auth-layout';
import { schemaErrors } from './form-errors';
import { BackToSignIn, PASSWORD_HINT, SubmitButton } from './form-parts';

const EMPTY = { name: '', fullName: '', email: '', phone: '', address: '', password: '', confirmPassword: '' };
type Field = keyof typeof EMPTY;

export default function RegisterPage() {
  const [values, setValues] = useState(EMPTY);
  const [formError, setFormError] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const register = useRegister();

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
    // The account stays unconfirmed until the mailed link is followed: no session is kept here.
    register.mutate(parsed.data, {
      onError: (error) => {
        const fields = serverFieldErrors(error);
        setErrors(fields);
        // A refusal of one field is shown under it; anything else above the form.
        setFormError(Object.keys(fields).some((f) => f in EMPTY) ? null : errorMessage(error, 'Registration failed. Please try again.'));
      },
    });
  };

  if (register.isSuccess) {
    return (
      <AuthLayout title="Check your email" width={600}>
        <Stack gap="md">
          <Alert color="teal" variant="light" icon={<IconMailCheck aria-hidden />} role="status">
            {register.data.message}
          </Alert>
          <Text size="sm" c="dimmed">
            The link works once, for 72 hours. Until it is followed the account cannot sign in. No mail? Use Forgot password on the
            sign-in screen: its link confirms the address too.
          </Text>
          <BackToSignIn />
        </Stack>
      </AuthLayout>
    );
  }

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
            <PasswordInput label="Password" autoComplete="new-password" description={PASSWORD_HINT} withAsterisk {...field('password')} />
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
