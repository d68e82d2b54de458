import { useState, type FormEvent } from 'react';
import type { StaffMember } from '../../../contract/staff';
import { errorMessage } from '../../lib/api-client';
import { serverFieldErrors, type FieldErrors } from '../../lib/api-client';
import { FormModal } from '../../components/form-modal';
import { checkDetails, DetailsFields } from './staff-details';
import { useUpdateStaff } from './staff.api';

interface EditStaffFormProps {
  member: StaffMember;
  onClose: () => void;
  onSaved: (message: string) => void;
}

/** The sign-in email is changed here (or by the account itself), never on the member screens. */
export function EditStaffForm({ member, onClose, onSaved }: EditStaffFormProps) {
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
      { userId: member.userId, body: { fullName: fullName.trim(), email: email.trim() } },
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
        emailDescription="Links already mailed to the old address stop working."
      />
    </FormModal>
  );
}
