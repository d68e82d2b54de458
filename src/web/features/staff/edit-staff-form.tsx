import { useState, type FormEvent } from 'react';
import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import type { StaffMember } from '../../../contract/staff';
import { ACCOUNT_PATH } from '../../lib/paths';
import { errorMessage } from '../../lib/api-client';
import { serverFieldErrors, type FieldErrors } from '../../lib/api-client';
import { FormModal } from '../../components/form-modal';
import { checkDetails, DetailsFields } from './staff-details';
import { useUpdateStaff } from './staff.api';

interface EditStaffFormProps {
  member: StaffMember;
  /** The signed-in account's own row: its sign-in email changes only under Your account, where the password is asked again. */
  self?: boolean;
  onClose: () => void;
  onSaved: (message: string) => void;
}

/** Someone else's sign-in email is changed here, one's own under Your account; never on the member screens. */
export function EditStaffForm({ member, self = false, onClose, onSaved }: EditStaffFormProps) {
  const [fullName, setFullName] = useState(member.fullName);
  const [email, setEmail] = useState(member.email);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateStaff();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending) return;
    const found = checkDetails(fullName, email);
    setErrors(found);
    setError(null);
    if (Object.keys(found).length > 0) return;
    update.mutate(
      { userId: member.userId, body: self ? { fullName: fullName.trim() } : { fullName: fullName.trim(), email: email.trim() } },
      {
        onSuccess: (res) => onSaved(res.message),
        onError: (err) => {
          setErrors(serverFieldErrors(err));
          setError(errorMessage(err, 'Failed to save the staff member'));
        },
      },
    );
  };

  return (
    <FormModal title={`Edit ${member.fullName}`} error={error} busy={update.isPending} submitLabel="Save" onClose={onClose} onSubmit={submit}>
      <DetailsFields
        fullName={fullName}
        email={email}
        onFullName={setFullName}
        onEmail={setEmail}
        errors={errors}
        emailReadOnly={self}
        emailDescription={
          self ? (
            <>
              Your own sign-in email changes under{' '}
              <Anchor component={Link} to={ACCOUNT_PATH} inherit>
                Your account
              </Anchor>
              , where your password is asked again.
            </>
          ) : (
            'Links already mailed to the old address stop working.'
          )
        }
      />
    </FormModal>
  );
}
